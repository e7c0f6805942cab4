import { randomUUID } from 'node:crypto';
import { type ActionName, type ActivityCode, catalogueEntry } from '@latchkey/contracts';
import { currentRequestOrigin, deviceFromUserAgent, type Queryable } from '@latchkey/runtime';
import { usersRepository } from '../users/index.ts';
import { type OutboxEvent, eventlogsRepository as repo } from './eventlogs.repository.ts';

/**
 * One thing that happened on the server, for the team's event log. `actor` is who did
 * it (an email, or 'system'); `activity` is `<area>.<verb>` (`member.invited`, `auth.sign_in`);
 * `component` the console area (`members`, `groups`, `policies`, `admins`, `branding`, `integration`,
 * `auth`, `scim`, `sso`, `billing`, `onboarding`…); `target` what it was done to (an email, a group's name).
 */
export interface ServerEvent {
  teamId: string;
  actor: string;
  actorType?: OutboxEvent['actor_type'];
  /** A code the activity catalogue declares (packages/contracts/src/event-catalogue). */
  activity: ActivityCode;
  component: string;
  target?: string | undefined;
  ip?: string | undefined;
  device?: string | undefined;
  outcome?: OutboxEvent['outcome'];
  detail?: OutboxEvent['detail'];
}

/**
 * Records an event in `q`, the caller's transaction: it reaches the team's Hub if and only if the
 * change commits, even when the Hub is down meanwhile (outbox → job → signed call, idempotent by id).
 * Made while handling a console request, the event carries that request's IP address and device
 * (from its User-Agent) unless the caller gives them; a job's events carry none.
 */
export async function recordEvent(q: Queryable, e: ServerEvent): Promise<void> {
  await repo.insertMany(q, e.teamId, [outboxEvent(e)]);
}

/** The event as the outbox keeps it, with the request's origin when the caller gave none. */
function outboxEvent(e: Omit<ServerEvent, 'teamId'>): OutboxEvent {
  assertCatalogued(e.activity);
  const origin = currentRequestOrigin();
  return {
    id: randomUUID(),
    actor: e.actor.slice(0, 320),
    actor_type: e.actorType ?? 'admin',
    activity: e.activity,
    component: e.component,
    target: (e.target ?? '').slice(0, 320),
    ip: (e.ip || origin.ip || '').slice(0, 64),
    device: (e.device || deviceFromUserAgent(origin.userAgent)).slice(0, 200),
    occurred_at: new Date().toISOString(),
    outcome: e.outcome ?? 'success',
    detail: e.detail ?? {},
  };
}

/** `member_invited` → activity `member.invited`, component `members` (the catalogue's). */
export function fromAction(action: ActionName): { activity: ActivityCode; component: string } {
  const [first = action, ...rest] = action.split('_');
  const activity = `${first}.${rest.join('_')}` as ActivityCode;
  return { activity, component: catalogueEntry(activity)?.component ?? 'console' };
}

/**
 * Writers are typed by the catalogue; a code made at run time (`admin_elevation_${reason}`) is
 * checked here too, so a test that reaches it fails when the catalogue lacks it. In production the
 * event is kept: losing a log line is worse than an undeclared label.
 */
export function assertCatalogued(activity: string): void {
  if (process.env.VITEST && !catalogueEntry(activity)) throw new Error(`Activity ${activity} is not in the activity catalogue.`);
}

/** Short plain values only: a table's detail may hold more than the event log should. */
export function plainDetail(detail: object | undefined): Record<string, string | number | boolean> {
  return Object.fromEntries(
    Object.entries(detail ?? {})
      .map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : v] as const)
      .filter(([, v]) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')
      .slice(0, 20)
      .map(([k, v]) => [k.slice(0, 50), typeof v === 'string' ? v.slice(0, 200) : (v as number | boolean)]),
  );
}

/** Several events in one statement (a bulk invite records one per member). */
async function recordEvents(q: Queryable, teamId: string, events: readonly Omit<ServerEvent, 'teamId'>[]): Promise<void> {
  if (events.length > 0) await repo.insertMany(q, teamId, events.map(outboxEvent));
}

/**
 * A console action named the way the server's history tables name it (`member_invited`,
 * `admin_added`, `billing_plan_changed`): one event per target, by the admin `actorId` (null: no
 * admin acted, so the system or, when `detail.actor_type` is `scim`, the SCIM connector
 * `detail.connector`, or `directory`, the Hub's directory sync). `targets` may depend on who acted (a member acting on themselves names no target).
 */
export async function recordAction(
  q: Queryable,
  a: {
    teamId: string;
    actorId: string | null;
    action: ActionName;
    targets: readonly string[] | ((actorEmail: string | undefined) => readonly string[]);
    detail?: Record<string, unknown> | object;
  },
): Promise<void> {
  const detail = (a.detail ?? {}) as Record<string, unknown>;
  const actor = a.actorId ? (await usersRepository.findUserById(q, a.actorId))?.email : undefined;
  const targets = typeof a.targets === 'function' ? a.targets(actor) : a.targets;
  await recordEvents(q, a.teamId, actionEvents(actor, { action: a.action, targets, detail }));
}

type Action = { action: ActionName; targets: readonly string[]; detail: Record<string, unknown> };

/** One event per target of an action, by the admin `actor` or, without one, the system, a SCIM connector or directory sync. */
function actionEvents(actor: string | undefined, a: Action): Omit<ServerEvent, 'teamId'>[] {
  const scim = !actor && a.detail.actor_type === 'scim';
  const directory = !actor && a.detail.actor_type === 'directory';
  return a.targets.map((target) => ({
    actor: actor ?? (scim ? `scim:${String(a.detail.connector ?? '')}` : directory ? 'directory sync' : 'system'),
    actorType: actor ? 'admin' : scim ? 'scim' : 'system',
    ...fromAction(a.action),
    target,
    detail: plainDetail(a.detail),
  }));
}

/** Many console actions by one actor in one statement (a directory sync batch records hundreds). */
export async function recordActions(q: Queryable, teamId: string, actorId: string | null, actions: readonly Action[]) {
  const actor = actorId ? (await usersRepository.findUserById(q, actorId))?.email : undefined;
  await recordEvents(
    q,
    teamId,
    actions.flatMap((a) => actionEvents(actor, a)),
  );
}
