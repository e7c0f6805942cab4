import { randomUUID } from 'node:crypto';
import {
  type ActivityOf,
  DIRECTORY_BATCH_MAX,
  type DirectoryConnection,
  type DirectoryConnectionForm,
  type DirectoryRun,
  hubDirectoryApplyEndpoint,
  hubDirectoryStateEndpoint,
} from '@latchkey/contracts';
import { AppError, type Db, type Jobs, type Sealer } from '@latchkey/runtime';
import type { FastifyBaseLogger } from 'fastify';
import type { HubKeys } from '../../platform/keys.ts';
import { hubOutboundPolicy } from '../../platform/outbound.ts';
import { signedServerCall } from '../../platform/server-call.ts';
import { recordHubEvents } from '../eventlogs/index.ts';
import { registrationsRepository } from '../registrations/index.ts';
import { type ConnectionRow, type RunRow, directoryRepository as repo } from './directory.repository.ts';
import { readDirectory } from './directory-reader.ts';
import { flattenGroups } from './group-nesting.ts';
import { DirectoryFailure, type LdapTarget, openLdap } from './ldap-session.ts';
import { planSync, type SyncPlan } from './sync-plan.ts';

/** The team's state can be large (every member): more time than a session check. */
const STATE_TIMEOUT_MS = 60_000;
const BATCH_TIMEOUT_MS = 120_000;
const DIRECTORY_SYNC_ACTOR = 'directory sync';

const unreadable = (failure: DirectoryFailure) =>
  new AppError('directory_unreadable', failure.message).shows(`directory.error.${failure.code}`);
const notConnected = () => new AppError('not_found', 'No directory is connected.').shows('directory.not_connected');

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

function connectionView(c: ConnectionRow): DirectoryConnection {
  return {
    kind: c.kind,
    url: c.url,
    security: c.security,
    ca_pem: c.ca_pem,
    bind_dn: c.bind_dn,
    has_password: c.bind_password_sealed !== '',
    base_dns: c.base_dns,
    mapping: c.mapping,
    remove_missing: c.remove_missing,
    interval_minutes: c.interval_minutes,
    applied_at: iso(c.applied_at),
    next_run_at: iso(c.next_run_at),
  };
}

function runView(r: RunRow): DirectoryRun {
  return {
    id: r.id,
    trigger: r.trigger,
    actor: r.actor,
    started_at: new Date(r.started_at).toISOString(),
    finished_at: iso(r.finished_at),
    outcome: r.outcome,
    error_code: r.error_code,
    error_message: r.error_message,
    counts: r.counts,
    sample: r.sample,
  };
}

export interface DirectorySyncOptions {
  db: Db;
  jobs: Jobs;
  keys: HubKeys;
  sealer: Sealer;
  log: FastifyBaseLogger;
}

/**
 * Directory sync, run by the Hub inside the customer's network: it reads the directory, asks the
 * licence server what the team holds, plans the changes (sync-plan.ts) and applies them through the
 * server's own rules over the signed channel, a batch per transaction.
 */
export function createDirectorySync({ db, jobs, keys, sealer, log }: DirectorySyncOptions) {
  /** The form's password, or the saved one when the form leaves it empty and still points at the saved address. */
  async function target(teamSlug: string, form: DirectoryConnectionForm): Promise<LdapTarget> {
    let password = form.bind_password;
    if (password === '') {
      const saved = await repo.connection(db, teamSlug);
      // The saved password goes only where it was saved for (the SIEM secret rule).
      if (!saved || saved.url !== form.url || saved.bind_dn !== form.bind_dn)
        throw new AppError('invalid_input', 'Enter the bind password for this address.', 400, [
          { path: 'bind_password', message: 'this field is required' },
        ]);
      password = sealer.open(saved.bind_password_sealed);
    }
    return { url: form.url, security: form.security, caPem: form.ca_pem, bindDn: form.bind_dn, bindPassword: password };
  }

  async function read(connection: { target: LdapTarget; base_dns: string[]; mapping: DirectoryConnectionForm['mapping'] }) {
    try {
      const client = await openLdap(connection.target, hubOutboundPolicy());
      try {
        const snapshot = await readDirectory(client, connection.base_dns, connection.mapping);
        return { snapshot, members: flattenGroups(snapshot.groups, snapshot.users) };
      } finally {
        await client.unbind().catch(() => {});
      }
    } catch (error) {
      if (error instanceof DirectoryFailure) throw unreadable(error);
      throw error;
    }
  }

  async function registration(teamSlug: string) {
    const [first] = await registrationsRepository.listForTeam(db, teamSlug);
    if (!first?.server_url)
      throw new AppError('server_unreachable', 'This Hub is not connected to a licence server for the team.');
    return first;
  }

  /** The plan for the saved connection now. */
  async function plan(c: ConnectionRow): Promise<SyncPlan> {
    const saved = {
      target: {
        url: c.url,
        security: c.security,
        caPem: c.ca_pem,
        bindDn: c.bind_dn,
        bindPassword: sealer.open(c.bind_password_sealed),
      },
      base_dns: c.base_dns,
      mapping: c.mapping,
    };
    const { snapshot, members } = await read(saved);
    const state = await signedServerCall(
      keys,
      await registration(c.team_slug),
      hubDirectoryStateEndpoint,
      c.team_slug,
      { team_slug: c.team_slug },
      STATE_TIMEOUT_MS,
    );
    if (!state.ok) throw new AppError('server_unreachable', 'The licence server did not say what the team holds.');
    return planSync(snapshot, members, state.data, { removeMissing: c.remove_missing });
  }

  /** Sends the plan's changes in batches; each batch is one transaction on the server. */
  async function send(c: ConnectionRow, runId: string, changes: SyncPlan['changes']): Promise<{ applied: number }> {
    const reg = await registration(c.team_slug);
    let applied = 0;
    for (let from = 0; from < changes.length; from += DIRECTORY_BATCH_MAX) {
      const batch = changes.slice(from, from + DIRECTORY_BATCH_MAX);
      const answer = await signedServerCall(
        keys,
        reg,
        hubDirectoryApplyEndpoint,
        c.team_slug,
        { team_slug: c.team_slug, run_id: runId, changes: batch },
        BATCH_TIMEOUT_MS,
      );
      if (!answer.ok) {
        const why =
          answer.error?.description ?? (answer.status === 0 ? 'the licence server did not answer' : `HTTP ${answer.status}`);
        throw new AppError(answer.error?.code ?? 'server_unreachable', `${applied} changes were applied, then: ${why}`);
      }
      applied += answer.data.applied;
    }
    return { applied };
  }

  async function event(
    teamSlug: string,
    actor: string,
    activity: ActivityOf<'directory'>,
    detail: Record<string, string | number | boolean>,
    failed = false,
  ) {
    await recordHubEvents(db, teamSlug, [
      {
        actor,
        actor_type: actor === DIRECTORY_SYNC_ACTOR ? 'system' : 'admin',
        activity: `directory.${activity}`,
        component: 'directory_sync',
        outcome: failed ? 'failure' : 'success',
        detail,
      },
    ]);
  }

  /**
   * One run, logged from start to end: `work` returns how the run ended; a failure is logged with
   * its words and thrown on to the caller.
   */
  async function logged(
    teamSlug: string,
    trigger: RunRow['trigger'],
    actor: string,
    work: (runId: string) => Promise<Pick<RunRow, 'outcome' | 'counts' | 'sample'> & { plan_hash?: string }>,
  ): Promise<DirectoryRun> {
    const id = randomUUID();
    await repo.endAbandoned(db, teamSlug);
    try {
      await repo.startRun(db, { id, team_slug: teamSlug, trigger, actor });
    } catch {
      throw new AppError('conflict', 'A sync of this directory is running; try again when it ends.');
    }
    try {
      const end = await work(id);
      const run = await repo.finishRun(db, id, end);
      await event(teamSlug, actor, trigger === 'preview' ? 'previewed' : 'synced', {
        run: id,
        outcome: run.outcome,
        ...end.counts,
      });
      return runView(run);
    } catch (error) {
      const code = error instanceof AppError ? error.code : 'failed';
      const message = error instanceof Error ? error.message : String(error);
      await repo.finishRun(db, id, { outcome: 'failed', counts: {}, sample: {}, error_code: code, error_message: message });
      await event(teamSlug, actor, 'sync_failed', { run: id, error: code }, true);
      if (!(error instanceof AppError)) log.error({ err: error, team: teamSlug }, 'directory sync failed');
      throw error;
    }
  }

  /** Applies the plan; the sync then counts as done (`applied_at`) and the next scheduled run is set. */
  const applyPlan = async (c: ConnectionRow, runId: string, planned: SyncPlan) => {
    if (planned.changes.length > 0) await send(c, runId, planned.changes);
    await repo.applied(db, c.team_slug);
    const outcome = planned.changes.length > 0 ? ('applied' as const) : ('unchanged' as const);
    return { outcome, counts: planned.counts, sample: planned.sample, plan_hash: planned.hash };
  };

  async function connected(teamSlug: string): Promise<ConnectionRow> {
    const c = await repo.connection(db, teamSlug);
    if (!c) throw notConnected();
    return c;
  }

  /** A scheduled or on-demand sync, once a preview was applied. */
  async function sync(teamSlug: string, trigger: 'sync_now' | 'schedule', actor: string) {
    const c = await connected(teamSlug);
    if (!c.applied_at)
      throw new AppError('directory_preview_first', 'Apply a preview before the first sync.').shows('directory.preview_first');
    return logged(teamSlug, trigger, actor, async (runId) => applyPlan(c, runId, await plan(c)));
  }

  const scheduled = jobs.define<{ team_slug: string }>(
    'directory-sync',
    async ({ team_slug }) => {
      await sync(team_slug, 'schedule', DIRECTORY_SYNC_ACTOR).catch((err: unknown) => {
        // Logged in the run's history; the schedule moves on to the next interval.
        if (!(err instanceof AppError && err.code === 'conflict'))
          log.warn({ err, team: team_slug }, 'scheduled directory sync failed');
      });
      // A failed run waits for the next interval too, rather than every minute.
      await repo.scheduleNext(db, team_slug);
    },
    { retryLimit: 0, expireInSeconds: 3_600 },
  );

  return {
    async settings(teamSlug: string) {
      const c = await repo.connection(db, teamSlug);
      return { connection: c ? connectionView(c) : null, runs: (await repo.runs(db, teamSlug)).map(runView) };
    },

    /** Binds, counts and maps five users; saves nothing. */
    async test(teamSlug: string, form: DirectoryConnectionForm) {
      const { snapshot } = await read({ target: await target(teamSlug, form), base_dns: form.base_dns, mapping: form.mapping });
      const samples = snapshot.users
        .slice(0, 5)
        .map(({ id, email, name, login, disabled }) => ({ id, email, name, login, disabled }));
      return { users: snapshot.users.length, groups: snapshot.groups.length, samples };
    },

    /** Saves the connection once a bind with it works. */
    async save(
      teamSlug: string,
      actor: string,
      form: DirectoryConnectionForm & { remove_missing: boolean; interval_minutes: number | null },
    ) {
      const bound = await target(teamSlug, form);
      try {
        const client = await openLdap(bound, hubOutboundPolicy());
        await client.unbind().catch(() => {});
      } catch (error) {
        throw error instanceof DirectoryFailure ? unreadable(error) : error;
      }
      await db.transaction(async (tx) => {
        await repo.save(
          tx,
          {
            team_slug: teamSlug,
            kind: form.kind,
            url: form.url,
            security: form.security,
            ca_pem: form.ca_pem,
            bind_dn: form.bind_dn,
            bind_password_sealed: sealer.seal(bound.bindPassword),
            base_dns: form.base_dns,
            mapping: form.mapping,
            remove_missing: form.remove_missing,
            interval_minutes: form.interval_minutes,
          },
          actor,
        );
        await recordHubEvents(tx, teamSlug, [
          {
            actor,
            actor_type: 'admin',
            activity: 'directory.connection_saved',
            component: 'directory_sync',
            target: form.url,
            detail: { kind: form.kind },
          },
        ]);
      });
      return { connection: connectionView(await connected(teamSlug)) };
    },

    async remove(teamSlug: string, actor: string) {
      await db.transaction(async (tx) => {
        if (!(await repo.remove(tx, teamSlug))) throw notConnected();
        await recordHubEvents(tx, teamSlug, [
          { actor, actor_type: 'admin', activity: 'directory.connection_removed', component: 'directory_sync' },
        ]);
      });
      return { code: 'ok' as const };
    },

    async preview(teamSlug: string, actor: string) {
      const c = await connected(teamSlug);
      return logged(teamSlug, 'preview', actor, async () => {
        const planned = await plan(c);
        return { outcome: 'previewed', counts: planned.counts, sample: planned.sample, plan_hash: planned.hash };
      });
    },

    /** Applies a preview, only while the directory and the team still give the same changes. */
    async apply(teamSlug: string, actor: string, runId: string) {
      const c = await connected(teamSlug);
      const preview = await repo.run(db, teamSlug, runId);
      if (preview?.outcome !== 'previewed' || !preview.plan_hash) throw new AppError('not_found', 'No such preview.');
      return logged(teamSlug, 'apply', actor, async (id) => {
        const planned = await plan(c);
        if (planned.hash !== preview.plan_hash)
          throw new AppError(
            'directory_changed',
            'The directory or the team changed since the preview; nothing was applied. Preview again.',
          ).shows('directory.changed_since_preview');
        return applyPlan(c, id, planned);
      });
    },

    syncNow: (teamSlug: string, actor: string) => sync(teamSlug, 'sync_now', actor),

    /** Queues the teams whose scheduled sync is due (one job per team and due time). */
    async tick() {
      for (const team_slug of await repo.due(db)) {
        const c = await repo.connection(db, team_slug);
        await scheduled.enqueue(
          db,
          { team_slug },
          { key: `${team_slug}:${c?.next_run_at ? new Date(c.next_run_at).getTime() : 0}` },
        );
      }
    },
  };
}
export type DirectorySync = ReturnType<typeof createDirectorySync>;
