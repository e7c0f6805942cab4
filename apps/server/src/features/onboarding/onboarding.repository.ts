import type { Queryable } from '@latchkey/runtime';
import { teamRepository } from '../team/index.ts';

export interface WizardRow {
  show_wizard: boolean;
  enable_console: boolean;
  resume_notification: boolean;
  state: { stage: string } & Record<string, unknown>;
}

interface ConsentRow {
  team_id: string;
  user_id: string;
  cloud: string;
  provider: string;
  expired: boolean;
  used: boolean;
}

export const onboardingRepository = {
  /** The team's onboarding state (a column of the teams row), locked for the change that follows. */
  async lockWizard(q: Queryable, teamId: string): Promise<WizardRow | undefined> {
    return teamRepository.onboardingWizard<WizardRow>(q, teamId, true);
  },

  async wizard(q: Queryable, teamId: string): Promise<WizardRow | undefined> {
    return teamRepository.onboardingWizard<WizardRow>(q, teamId);
  },

  async saveWizard(q: Queryable, teamId: string, wizard: WizardRow): Promise<void> {
    await teamRepository.saveOnboardingWizard(q, teamId, wizard);
  },

  async recordEvent(
    q: Queryable,
    e: { teamId: string; userId: string; stage: string; action: string; event: string; state: string; payload: object },
  ): Promise<void> {
    await q.query(
      `insert into onboarding_events (team_id, user_id, stage, action, event, state, payload)
       values ($1, $2, $3, $4, $5, $6, $7)`,
      [e.teamId, e.userId, e.stage, e.action, e.event, e.state, JSON.stringify(e.payload)],
    );
  },

  async events(q: Queryable, teamId: string) {
    return q.query<{ stage: string; action: string; event: string; state: string; payload: Record<string, unknown> }>(
      'select stage, action, event, state, payload from onboarding_events where team_id = $1 order by id',
      [teamId],
    );
  },

  async createConsent(
    q: Queryable,
    c: { stateHash: string; teamId: string; userId: string; cloud: string; provider: string; ttlMinutes: number },
  ): Promise<void> {
    await q.query(
      `insert into onboarding_consents (state_hash, team_id, user_id, cloud, provider, expires_at)
       values ($1, $2, $3, $4, $5, now() + make_interval(mins => $6))`,
      [c.stateHash, c.teamId, c.userId, c.cloud, c.provider, c.ttlMinutes],
    );
  },

  /** The consent round trip with this state, locked; spent or expired ones say so. */
  async lockConsent(q: Queryable, stateHash: string): Promise<ConsentRow | undefined> {
    const [row] = await q.query<ConsentRow>(
      `select team_id, user_id, cloud, provider, expires_at <= now() as expired, used_at is not null as used
       from onboarding_consents where state_hash = $1 for update`,
      [stateHash],
    );
    return row;
  },

  async spendConsent(q: Queryable, stateHash: string, outcome: string): Promise<void> {
    await q.query('update onboarding_consents set used_at = now(), outcome = $2 where state_hash = $1', [stateHash, outcome]);
  },
};
