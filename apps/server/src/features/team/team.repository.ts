import type { BillState, BillType, HostingPreference, PlanType, PurchasePartner, Scope } from '@latchkey/contracts';
import type { Queryable } from '@latchkey/runtime';
import type { CallerTeam, SessionContext } from '../../http/caller.ts';
import { adminsRepository, scopesHeld } from '../admins/index.ts';
import { sessionsRepository } from '../auth/index.ts';
import { teamHubsRepository } from '../integration/index.ts';
import { usersRepository } from '../users/index.ts';

/** The billing columns of a teams row, with the team's name (features/billing reads them). */
export interface TeamBillingRow {
  team_slug: string;
  team_name: string;
  team_type: 'organization' | 'family';
  bill_state: BillState;
  bill_type: BillType;
  purchase_partner: PurchasePartner | null;
  total_licences: number;
}

/** A teams row as the console reads it: the caller's team (http/caller.ts). */
type TeamRow = CallerTeam;

/** Everything a request's access decision needs. */
export type SessionContextRow = SessionContext;

const TEAM_COLUMNS = `t.id, t.slug, t.name, t.team_type, t.organization_type, t.bill_state, t.bill_type, t.business_cloud,
  t.purchase_partner, t.is_team_policy_present, t.benefit_grant_subscription, to_char(t.started_on, 'YYYY-MM-DD') as started_on,
  to_char(t.valid_till, 'YYYY-MM-DD') as valid_till, t.onboarding_wizard`;

export const teamRepository = {
  /**
   * The session, its admin's email and scopes, the team and its first Hub's services: each asked of
   * the room that owns it (auth, users, admins, integration). Undefined for an unknown session.
   */
  async findSessionContext(q: Queryable, sessionId: string): Promise<SessionContextRow | undefined> {
    const session = await sessionsRepository.find(q, sessionId);
    if (!session) return undefined;
    const [user, scopes, team, hubServices] = await Promise.all([
      usersRepository.findUserById(q, session.user_id),
      adminsRepository.scopesIn(q, session.team_id, session.user_id),
      teamRepository.findById(q, session.team_id),
      teamHubsRepository.firstServices(q, session.team_id),
    ]);
    if (!user) return undefined;
    // Time-bound scopes (just-in-time elevations) join the standing ones, each with its expiry.
    const held = scopes ? await scopesHeld(q, session.team_id, session.user_id, scopes) : null;
    return {
      session_id: session.id,
      user_id: session.user_id,
      email: user.email,
      revoked_at: session.revoked_at,
      absolute_expires_at: session.absolute_expires_at,
      scopes: held?.scopes ?? null,
      scope_expiry: held?.expiry ?? {},
      team: team as TeamRow,
      first_hub_services: hubServices,
    };
  },

  async findById(q: Queryable, id: string): Promise<TeamRow | undefined> {
    const [row] = await q.query<TeamRow>(`select ${TEAM_COLUMNS} from teams t where t.id = $1`, [id]);
    return row;
  },

  async findBySlug(q: Queryable, slug: string): Promise<TeamRow | undefined> {
    const [row] = await q.query<TeamRow>(`select ${TEAM_COLUMNS} from teams t where t.slug = $1`, [slug]);
    return row;
  },

  /** Teams where the person is an administrator, by name. */
  async adminTeams(
    q: Queryable,
    userId: string,
  ): Promise<(Pick<TeamRow, 'id' | 'slug' | 'name' | 'team_type' | 'organization_type'> & { scopes: Scope[] })[]> {
    const memberships = await adminsRepository.teamsOf(q, userId);
    if (memberships.length === 0) return [];
    const scopes = new Map(memberships.map((m) => [m.team_id, m.scopes]));
    const teams = await q.query<Pick<TeamRow, 'id' | 'slug' | 'name' | 'team_type' | 'organization_type'>>(
      'select id, slug, name, team_type, organization_type from teams where id = any($1::uuid[]) order by name',
      [[...scopes.keys()]],
    );
    return teams.map((t) => ({ ...t, scopes: scopes.get(t.id) ?? [] }));
  },

  async rename(q: Queryable, teamId: string, name: string): Promise<void> {
    await q.query('update teams set name = $2 where id = $1', [teamId, name]);
  },

  /** Locks the team's row for the rest of the transaction: a team's policy and group-priority changes queue behind each other. */
  async lock(q: Queryable, teamId: string): Promise<void> {
    await q.query('select id from teams where id = $1 for update', [teamId]);
  },

  /** Whether the team has a team policy (what the console's team info says). */
  async setPolicyPresent(q: Queryable, teamId: string, present: boolean): Promise<void> {
    await q.query('update teams set is_team_policy_present = $2 where id = $1', [teamId, present]);
  },

  // ── Other domains' columns on the teams row, each read and written only through here ──

  /** The team's onboarding wizard state (features/onboarding); `lock` holds the row for the change that follows. */
  async onboardingWizard<T>(q: Queryable, teamId: string, lock = false): Promise<T | undefined> {
    const [row] = await q.query<{ onboarding_wizard: T }>(
      `select onboarding_wizard from teams where id = $1${lock ? ' for update' : ''}`,
      [teamId],
    );
    return row?.onboarding_wizard;
  },

  async saveOnboardingWizard(q: Queryable, teamId: string, wizard: unknown): Promise<void> {
    await q.query('update teams set onboarding_wizard = $2 where id = $1', [teamId, JSON.stringify(wizard)]);
  },

  // ── The operator's commands (features/operator) ──

  /** A new team; undefined when the slug is taken. */
  async create(
    q: Queryable,
    t: { slug: string; name: string; teamType: string; organizationType: string; validTill: string },
  ): Promise<string | undefined> {
    const [row] = await q.query<{ id: string }>(
      `insert into teams (slug, name, team_type, organization_type, valid_till) values ($1, $2, $3, $4, $5)
       on conflict (slug) do nothing returning id`,
      [t.slug, t.name, t.teamType, t.organizationType, t.validTill],
    );
    return row?.id;
  },

  /** The team's row as the operator's export writes it. */
  async exportRow(q: Queryable, teamId: string): Promise<Record<string, unknown> | undefined> {
    const [row] = await q.query<Record<string, unknown>>(
      `select slug, name, team_type, organization_type, bill_state, bill_type, business_cloud, purchase_partner,
        to_char(started_on, 'YYYY-MM-DD') as started_on, to_char(valid_till, 'YYYY-MM-DD') as valid_till,
        onboarding_wizard, created_at
       from teams where id = $1`,
      [teamId],
    );
    return row;
  },

  // ── Billing's columns (features/billing) ──

  /** The team's own billing columns, with its name; `lock` holds the row for the billing change that follows. */
  async billing(q: Queryable, teamId: string, lock = false) {
    const [row] = await q.query<TeamBillingRow>(
      `select slug as team_slug, name as team_name, team_type, bill_state, bill_type, purchase_partner, total_licences
       from teams where id = $1${lock ? ' for update' : ''}`,
      [teamId],
    );
    return row;
  },

  /** What a team's first subscription starts from: its organisation type and licence dates. */
  async subscriptionSeed(q: Queryable, teamId: string) {
    const [row] = await q.query<{ slug: string; organization_type: string; started_on: string; valid_till: string }>(
      `select slug, organization_type, to_char(started_on, 'YYYY-MM-DD') as started_on,
         to_char(valid_till, 'YYYY-MM-DD') as valid_till
       from teams where id = $1`,
      [teamId],
    );
    return row;
  },

  /** The billing state and purchase partner of each of these teams, by id: the billing schedule's filter. */
  async billingStates(
    q: Queryable,
    teamIds: string[],
  ): Promise<Map<string, { bill_state: BillState; purchase_partner: PurchasePartner | null }>> {
    if (teamIds.length === 0) return new Map();
    const rows = await q.query<{ id: string; bill_state: BillState; purchase_partner: PurchasePartner | null }>(
      'select id, bill_state, purchase_partner from teams where id = any($1::uuid[])',
      [teamIds],
    );
    return new Map(rows.map((r) => [r.id, { bill_state: r.bill_state, purchase_partner: r.purchase_partner }]));
  },

  async setTotalLicences(q: Queryable, teamId: string, total: number): Promise<void> {
    await q.query('update teams set total_licences = $2 where id = $1', [teamId, total]);
  },

  async setBilling(
    q: Queryable,
    teamId: string,
    fields: {
      bill_state?: BillState;
      valid_till?: string;
      organization_type?: PlanType;
      purchase_partner?: PurchasePartner | null;
      bill_type?: BillType;
    },
  ): Promise<void> {
    const entries = Object.entries(fields).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return;
    await q.query(`update teams set ${entries.map(([k], i) => `${k} = $${i + 2}`).join(', ')} where id = $1`, [
      teamId,
      ...entries.map(([, v]) => v),
    ]);
  },

  // ── For the integration room (wired in by src/integration-lookups.ts: integration cannot import team) ──

  /** Each of these teams' slug, by id. */
  async slugsOf(q: Queryable, teamIds: string[]): Promise<Map<string, string>> {
    if (teamIds.length === 0) return new Map();
    const rows = await q.query<{ id: string; slug: string }>('select id, slug from teams where id = any($1::uuid[])', [teamIds]);
    return new Map(rows.map((r) => [r.id, r.slug]));
  },

  /** Where the team wants its auxiliary services hosted. */
  async auxHosting(q: Queryable, teamId: string): Promise<HostingPreference> {
    const [row] = await q.query<{ aux_hosting: HostingPreference }>('select aux_hosting from teams where id = $1', [teamId]);
    return row?.aux_hosting ?? 'not_set';
  },

  async setAuxHosting(q: Queryable, teamId: string, hosting: HostingPreference): Promise<void> {
    await q.query('update teams set aux_hosting = $2 where id = $1', [teamId, hosting]);
  },
};
