import {
  type adminElevationRequestEndpoint,
  ELEVATION_MAX_MINUTES,
  ELEVATION_MIN_MINUTES,
  type Elevation,
  type ElevationSettings,
  type EndpointArgs,
  liveScopes,
  type Scope,
  type ScopeExpiry,
} from '@latchkey/contracts';
import { AppError, type Db, type Queryable } from '@latchkey/runtime';
import type { Caller } from '../../http/caller.ts';
import type { HubSessionEnder } from '../integration/index.ts';
import { recordAdminEvent } from './admin-events.ts';
import { adminsRepository } from './admins.repository.ts';
import { assertKeepsSuperAdmin } from './admins.service.ts';
import { heldScopes, splitScopes } from './elevation-rules.ts';
import { type ElevationRow, elevationsRepository as repo } from './elevations.repository.ts';

type ElevationInput = EndpointArgs<typeof adminElevationRequestEndpoint>;

/** What just-in-time rights ask of the approvals room (handed in by the composition root). */
export interface ElevationApprovals {
  /** The scopes the team's approval policy lets an eligible admin take alone, with a logged reason. */
  selfScopes(q: Queryable, teamId: string): Promise<Scope[]>;
  /** An approval request's status now; undefined when there is none. */
  requestStatus(q: Queryable, teamId: string, requestId: string): Promise<string | undefined>;
  /** The person whose approval closed the request (null: the operator). */
  approverOf(q: Queryable, requestId: string): Promise<string | null>;
}

export interface ElevationsDeps {
  hubSessions: HubSessionEnder;
  approvalLookups: ElevationApprovals;
}

/** Approval requests that closed without running: their pending elevation ends with them. */
const CLOSED_UNAPPLIED: Record<string, 'rejected' | 'expired' | 'withdrawn'> = {
  rejected: 'rejected',
  expired: 'expired',
  withdrawn: 'withdrawn',
  failed: 'rejected',
};

const notFound = () => new AppError('elevation_not_found', 'No such elevation of yours.').shows('errors.elevation_not_found');

export function toElevation(row: ElevationRow, email: string, approver: string | null = null): Elevation {
  return {
    id: row.id,
    email,
    scope: row.scope,
    minutes: row.minutes,
    reason: row.reason,
    status: row.status,
    requested_at: row.requested_at.getTime(),
    expires_at: row.expires_at?.getTime() ?? null,
    request_id: row.request_id,
    approved_by: approver,
    ended_reason: (row.ended_reason as Elevation['ended_reason']) ?? null,
  };
}

/**
 * An admin's standing scopes with their active elevations, each with its expiry (the server's
 * truth, read per request): `liveScopes` drops a time-bound one past its expiry.
 */
export async function scopesHeld(q: Queryable, teamId: string, userId: string, standing: readonly Scope[]) {
  return heldScopes(standing, await repo.held(q, teamId, userId));
}

const liveNow = (held: { scopes: Scope[]; expiry: ScopeExpiry }) => liveScopes(held.scopes, held.expiry, Date.now());

/**
 * Just-in-time admin rights. With the team's setting on, an admin eligible for a scope holds it
 * only while an elevation is active: self-granted (the approval policy allows that scope) or
 * approved by another super admin through the approvals room. An elevation falls away at its
 * expiry by itself (the guard and the Hub compare it with their clock); the sweep records the
 * event and tells the Hub. One standing super admin always remains: the team's way in.
 */
export function createElevationsService(db: Db, deps: ElevationsDeps) {
  /** Tells the team's Hubs the admin's scopes now, so a scope that ended falls away there at once. */
  async function tellHubs(teamId: string, userId: string, email: string) {
    const standing = (await adminsRepository.scopesIn(db, teamId, userId)) ?? [];
    const scopes = liveNow(await scopesHeld(db, teamId, userId, standing));
    await deps.hubSessions.sessionsEnded({ teamId, admin: { email, scopes } });
  }

  /** Ends pending elevations whose approval request closed without running (rejected, expired, withdrawn). */
  async function reconcile(q: Queryable, rows: ElevationRow[]): Promise<ElevationRow[]> {
    const out: ElevationRow[] = [];
    for (const row of rows) {
      if (row.status !== 'pending' || !row.request_id) {
        out.push(row);
        continue;
      }
      const status = await deps.approvalLookups.requestStatus(q, row.team_id, row.request_id);
      const reason = status ? CLOSED_UNAPPLIED[status] : undefined;
      const ended = reason ? await repo.end(q, row.id, reason, new Date()) : undefined;
      if (ended && reason) {
        const email = (await adminsRepository.findEmail(q, row.user_id)) ?? '';
        await recordAdminEvent(q, row.team_id, null, `admin_elevation_${reason}`, email, {
          request_id: row.request_id,
          elevation_id: row.id,
          scope: row.scope,
        });
      }
      out.push(ended ?? row);
    }
    return out;
  }

  return {
    async overview(caller: Caller) {
      const [settings, selfScopes, eligible] = await Promise.all([
        repo.settings(db, caller.team.id),
        deps.approvalLookups.selfScopes(db, caller.team.id),
        repo.eligibleScopes(db, caller.team.id, caller.userId),
      ]);
      const rows = await db.transaction(async (tx) => reconcile(tx, await repo.mine(tx, caller.team.id, caller.userId)));
      const admins = await adminsRepository.list(db, caller.team.id);
      // Someone else who holds super_admin now (standing, or elevated) could approve.
      const approvers = await Promise.all(
        admins
          .filter((a) => a.user_id !== caller.userId)
          .map(async (a) => liveNow(await scopesHeld(db, caller.team.id, a.user_id, a.scopes)).includes('super_admin')),
      );
      const elevations = await Promise.all(
        rows.map(async (r) =>
          toElevation(r, caller.email, r.approved_by ? ((await adminsRepository.findEmail(db, r.approved_by)) ?? null) : null),
        ),
      );
      return {
        settings: { enabled: settings.enabled, self_scopes: selfScopes },
        eligible_scopes: settings.enabled ? eligible : [],
        elevations,
        approvers_available: approvers.some(Boolean),
      };
    },

    /**
     * Whether this request may go ahead, and how: at once (`self`) or through approval. Refused
     * while the setting is off, for a scope the admin is not eligible for, and while another
     * elevation of that scope is open.
     */
    async prepare(caller: Caller, input: ElevationInput): Promise<'self' | 'approval'> {
      const settings = await repo.settings(db, caller.team.id);
      if (!settings.enabled)
        throw new AppError('elevation_off', 'Just-in-time admin rights are off for this team.').shows('errors.elevation_off');
      const eligible = await repo.eligibleScopes(db, caller.team.id, caller.userId);
      if (!eligible.includes(input.scope) || caller.scopes.includes(input.scope)) {
        throw new AppError('not_eligible', `You are not eligible to elevate to ${input.scope}.`).shows('errors.not_eligible');
      }
      const open = await db.transaction(async (tx) => reconcile(tx, await repo.open(tx, caller.team.id, caller.userId)));
      if (open.some((e) => e.scope === input.scope && e.status !== 'ended')) {
        throw new AppError('elevation_exists', 'You already have an open elevation of this scope.').shows(
          'errors.elevation_exists',
        );
      }
      return (await deps.approvalLookups.selfScopes(db, caller.team.id)).includes(input.scope) ? 'self' : 'approval';
    },

    /** The approval request made: the elevation waits for it, and the event log says so. */
    async pending(caller: Caller, input: ElevationInput, requestId: string): Promise<void> {
      await db.transaction(async (tx) => {
        const row = await repo.create(tx, {
          teamId: caller.team.id,
          userId: caller.userId,
          ...input,
          active: false,
          now: new Date(),
        });
        if (!row) return;
        await repo.setRequest(tx, row.id, requestId);
        await recordAdminEvent(tx, caller.team.id, caller.userId, 'admin_elevation_requested', caller.email, {
          request_id: requestId,
          elevation_id: row.id,
          scope: input.scope,
          minutes: input.minutes,
          reason: input.reason,
        });
      });
    },

    /**
     * Grants the elevation from now: the approved request's run (in the transaction closing it), or
     * at once for a scope the policy lets the admin take alone. An approval whose pending elevation
     * was dropped meanwhile grants nothing: the request closes as failed.
     */
    async grant(caller: Caller, input: ElevationInput) {
      const self = (await deps.approvalLookups.selfScopes(db, caller.team.id)).includes(input.scope);
      const now = new Date();
      return db.transaction(async (tx) => {
        const settings = await repo.settings(tx, caller.team.id);
        if (!settings.enabled)
          throw new AppError('elevation_off', 'Just-in-time admin rights are off for this team.').shows('errors.elevation_off');
        const pending = (await repo.open(tx, caller.team.id, caller.userId)).find(
          (e) => e.scope === input.scope && e.status === 'pending',
        );
        if (pending) {
          const row = await repo.activate(
            tx,
            pending.id,
            pending.request_id ? await deps.approvalLookups.approverOf(tx, pending.request_id) : null,
            now,
          );
          if (!row) throw notFound();
          await recordAdminEvent(tx, caller.team.id, row.approved_by, 'admin_elevation_approved', caller.email, {
            request_id: row.request_id ?? '',
            elevation_id: row.id,
            scope: row.scope,
            minutes: row.minutes,
            expires_at: row.expires_at?.toISOString() ?? '',
          });
          return { code: 'elevated' as const, elevation: toElevation(row, caller.email), request_id: row.request_id };
        }
        if (!self) throw notFound();
        const row = await repo.create(tx, { teamId: caller.team.id, userId: caller.userId, ...input, active: true, now });
        if (!row)
          throw new AppError('elevation_exists', 'You already have an open elevation of this scope.').shows(
            'errors.elevation_exists',
          );
        await recordAdminEvent(tx, caller.team.id, caller.userId, 'admin_elevation_self', caller.email, {
          elevation_id: row.id,
          scope: row.scope,
          minutes: row.minutes,
          reason: row.reason,
          expires_at: row.expires_at?.toISOString() ?? '',
        });
        return { code: 'elevated' as const, elevation: toElevation(row, caller.email), request_id: null };
      });
    },

    /** The admin gives up their own elevation (active) or request (pending) before its time. */
    async drop(caller: Caller, id: string) {
      const row = await db.transaction(async (tx) => {
        const found = await repo.find(tx, caller.team.id, id, true);
        if (!found || found.user_id !== caller.userId) throw notFound();
        const ended = await repo.end(tx, id, found.status === 'pending' ? 'withdrawn' : 'dropped', new Date());
        if (!ended) throw notFound();
        await recordAdminEvent(tx, caller.team.id, caller.userId, 'admin_elevation_dropped', caller.email, {
          request_id: ended.request_id ?? '',
          elevation_id: ended.id,
          scope: ended.scope,
        });
        return ended;
      });
      if (row.ended_reason === 'dropped') await tellHubs(caller.team.id, caller.userId, caller.email);
      return { code: 'dropped' as const };
    },

    /** Switching off ends every elevation of the team: its admins keep their standing scopes only. */
    async setEnabled(caller: Caller, enabled: boolean): Promise<ElevationSettings> {
      const ended = await db.transaction(async (tx) => {
        const before = await repo.settings(tx, caller.team.id, true);
        await repo.saveSettings(tx, caller.team.id, { enabled, self_scopes: [] });
        const closed: ElevationRow[] = [];
        if (!enabled) {
          for (const row of await repo.open(tx, caller.team.id)) {
            const done = await repo.end(tx, row.id, 'settings_off', new Date());
            if (done) closed.push(done);
          }
        }
        if (before.enabled !== enabled) {
          await recordAdminEvent(tx, caller.team.id, caller.userId, 'admin_elevation_settings_changed', caller.email, {
            enabled,
            ended: closed.length,
          });
        }
        return closed;
      });
      for (const row of ended) {
        const email = (await adminsRepository.findEmail(db, row.user_id)) ?? '';
        await tellHubs(caller.team.id, row.user_id, email);
      }
      return { enabled, self_scopes: await deps.approvalLookups.selfScopes(db, caller.team.id) };
    },

    /**
     * An admin's standing and eligible scopes. The team keeps at least one standing super admin:
     * the person who can always approve (the operator's command line is the way in beyond that).
     */
    async setEligibility(caller: Caller, email: string, standing: Scope[], eligible: Scope[]) {
      const split = splitScopes(standing, eligible);
      const userId = await db.transaction(async (tx) => {
        const admins = await adminsRepository.lockAll(tx, caller.team.id);
        const admin = admins.find((a) => a.email === email && a.scopes.length > 0);
        if (!admin)
          throw new AppError('admin_not_in_team', `${email} is not an administrator of this team.`).shows(
            'errors.admin_not_in_team',
            { email },
          );
        assertKeepsSuperAdmin(
          admins.map((a) => (a.user_id === admin.user_id ? { ...a, scopes: split.scopes } : a)),
          '',
        );
        await repo.setScopes(tx, caller.team.id, admin.user_id, split.scopes, split.eligible);
        await recordAdminEvent(tx, caller.team.id, caller.userId, 'admin_eligibility_changed', email, {
          scopes: split.scopes,
          eligible_scopes: split.eligible,
        });
        return admin.user_id;
      });
      // A standing scope taken away ends at once on the Hub too.
      await tellHubs(caller.team.id, userId, email);
      return { code: 'updated' as const };
    },

    /**
     * Ends the elevations past their expiry (the event log says so, and the Hubs hear it), and the
     * pending ones whose approval request closed without running.
     */
    async expireDue(): Promise<number> {
      await db.transaction(async (tx) => reconcile(tx, await repo.pendingWithRequest(tx)));
      const ended = await db.transaction(async (tx) => {
        const due = await repo.dueToExpire(tx);
        const done: (ElevationRow & { email: string })[] = [];
        for (const row of due) {
          const ended = await repo.end(tx, row.id, 'expired', row.expires_at ?? new Date());
          if (!ended) continue;
          const email = (await adminsRepository.findEmail(tx, row.user_id)) ?? '';
          await recordAdminEvent(tx, row.team_id, null, 'admin_elevation_expired', email, {
            request_id: row.request_id ?? '',
            elevation_id: row.id,
            scope: row.scope,
          });
          done.push({ ...ended, email });
        }
        return done;
      });
      for (const row of ended) await tellHubs(row.team_id, row.user_id, row.email);
      return ended.length;
    },
  };
}
export type ElevationsService = ReturnType<typeof createElevationsService>;

/**
 * The operator's break-glass (`latchkey elevate`): an administrator of the team holds the scope
 * from now for the given minutes, without an approver and whether or not they are eligible, with
 * the reason in the event log. For a team whose only person able to approve is away.
 */
export async function breakGlassElevation(
  db: Db,
  e: { teamId: string; email: string; scope: Scope; minutes: number; reason: string },
): Promise<Elevation> {
  if (!Number.isInteger(e.minutes) || e.minutes < ELEVATION_MIN_MINUTES || e.minutes > ELEVATION_MAX_MINUTES)
    throw new AppError('invalid_input', `An elevation lasts ${ELEVATION_MIN_MINUTES} to ${ELEVATION_MAX_MINUTES} minutes.`);
  if (e.reason.trim().length < 3) throw new AppError('invalid_input', 'Give the reason for breaking glass.');
  const row = await db.transaction(async (tx) => {
    const admin = (await adminsRepository.lockAll(tx, e.teamId)).find((a) => a.email === e.email && a.scopes.length > 0);
    if (!admin)
      throw new AppError('admin_not_in_team', `${e.email} is not an administrator of this team.`).shows(
        'errors.admin_not_in_team',
        {
          email: e.email,
        },
      );
    if (admin.scopes.includes(e.scope)) throw new AppError('invalid_input', `${e.email} already holds ${e.scope}.`);
    const now = new Date();
    // An open elevation of the scope gives way to the operator's.
    for (const open of await repo.open(tx, e.teamId, admin.user_id))
      if (open.scope === e.scope) await repo.end(tx, open.id, open.status === 'pending' ? 'withdrawn' : 'dropped', now);
    const row = await repo.create(tx, {
      teamId: e.teamId,
      userId: admin.user_id,
      scope: e.scope,
      minutes: e.minutes,
      reason: e.reason.trim(),
      active: true,
      now,
    });
    if (!row) throw new AppError('elevation_exists', 'An elevation of this scope is open.');
    await recordAdminEvent(tx, e.teamId, null, 'admin_elevation_break_glass', e.email, {
      operator: true,
      elevation_id: row.id,
      scope: row.scope,
      minutes: row.minutes,
      reason: row.reason,
      expires_at: row.expires_at?.toISOString() ?? '',
    });
    return row;
  });
  return toElevation(row, e.email);
}
