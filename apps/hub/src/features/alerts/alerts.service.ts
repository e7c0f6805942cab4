import { randomUUID } from 'node:crypto';
import {
  type ActivityCode,
  ALERT_RULES_MAX,
  ALERT_TEMPLATES,
  type AlertCondition,
  type AlertDestinationInput,
  type AlertDestinationKind,
  type AlertRule,
  type AlertTemplateKey,
  type EventFilters,
} from '@latchkey/contracts';
import { AppError, type Db, type JobQueue, type Queryable, type Sealer } from '@latchkey/runtime';
import { eventLogReads, recordHubEvents } from '../eventlogs/index.ts';
import { openSecrets, resolveDestinations, sealSecrets } from './alert-destinations.ts';
import { type DeliverJob, recordFiring } from './alert-firing.ts';
import { ruleFilters } from './alert-match.ts';
import { type RecipientCheck, requireAdminRecipients } from './alert-recipients.ts';
import { alertStateRepository as state } from './alert-state.repository.ts';
import { type RuleRow, alertsRepository as repo } from './alerts.repository.ts';

/** Events shown per firing in the history. */
const EVENTS_SHOWN = 100;

export interface RuleInput {
  name: string;
  filters?: EventFilters | undefined;
  condition: AlertCondition;
  cooldown_minutes?: number | undefined;
  destinations: AlertDestinationInput[];
  enabled?: boolean | undefined;
}

const notFound = () => new AppError('not_found', 'No such alert rule.').shows('errors.alert_rule_not_found');
const nameTaken = () =>
  new AppError('invalid_input', 'A rule of this name exists.', 400, [{ path: 'name', message: 'alerts.form.name_taken' }]).shows(
    'alerts.form.name_taken',
  );

const view = (r: RuleRow): AlertRule => ({
  id: r.id,
  name: r.name,
  template: r.template,
  filters: r.filters,
  condition: r.condition,
  cooldown_minutes: r.cooldown_minutes,
  destinations: r.destinations,
  enabled: r.enabled,
  created_by: r.created_by,
  updated_at: new Date(r.updated_at).toISOString(),
  last_fired_at: r.last_fired_at ? new Date(r.last_fired_at).toISOString() : null,
});

/**
 * The team's alert rules as super admins manage them: each change is an event of the log
 * (`alert.rule_created`, `alert.rule_updated`, `alert.rule_deleted`), a test is a firing of its own
 * marked as a test (`alert.test_sent`), and the history reads each firing with its events.
 * E-mail goes to the team's administrators only: the licence server confirms each recipient
 * before a rule is saved (`recipients`).
 */
export function createAlertsService(
  db: Db,
  sealer: Sealer,
  deliver: JobQueue<DeliverJob>,
  kick: () => void,
  recipients: RecipientCheck,
) {
  const audit = (
    q: Queryable,
    teamSlug: string,
    actor: string,
    activity: ActivityCode,
    rule: RuleRow | { id: string; name: string },
    detail = {},
  ) =>
    recordHubEvents(q, teamSlug, [
      {
        actor,
        actor_type: 'admin',
        activity,
        component: 'event_logs',
        target: rule.name,
        detail: { rule_id: rule.id, ...detail },
      },
    ]);

  async function current(q: Queryable, teamSlug: string, id: string) {
    const rule = await repo.byId(q, teamSlug, id);
    if (!rule) throw notFound();
    return rule;
  }

  async function fields(teamSlug: string, input: RuleInput, template: string | null, before?: RuleRow) {
    const resolved = await resolveDestinations(
      input.destinations,
      before ? { destinations: before.destinations, secrets: openSecrets(sealer, before.secrets_sealed) } : undefined,
    );
    await requireAdminRecipients(recipients, teamSlug, resolved.destinations);
    return {
      name: input.name,
      template,
      filters: ruleFilters(input.filters),
      condition: input.condition,
      cooldown_minutes: input.cooldown_minutes ?? 0,
      destinations: resolved.destinations,
      secrets_sealed: sealSecrets(sealer, resolved.secrets),
      enabled: input.enabled ?? true,
    };
  }

  async function create(teamSlug: string, actor: string, input: RuleInput, template: string | null = null) {
    const f = await fields(teamSlug, input, template);
    const id = randomUUID();
    await db.transaction(async (tx) => {
      if ((await repo.count(tx, teamSlug)) >= ALERT_RULES_MAX)
        throw new AppError('not_allowed', `A team keeps at most ${ALERT_RULES_MAX} alert rules.`).shows(
          'errors.alert_rules_limit',
        );
      if (await repo.nameTaken(tx, teamSlug, f.name)) throw nameTaken();
      // Rules look forward, from the chain's head; the team's first rule starts evaluation there.
      // Under the cursor's lock: no batch is being evaluated without this rule meanwhile.
      await repo.startCursor(tx, teamSlug, (await eventLogReads.head(tx, teamSlug)).seq);
      await repo.lockCursor(tx, teamSlug);
      const head = (await eventLogReads.head(tx, teamSlug)).seq;
      await repo.insert(tx, teamSlug, id, actor, f, head);
      await audit(tx, teamSlug, actor, 'alert.rule_created', { id, name: f.name }, { template: template ?? '' });
    });
    kick();
    return { rule: view(await current(db, teamSlug, id)) };
  }

  return {
    async list(teamSlug: string) {
      const rules = await repo.list(db, teamSlug);
      const used = new Set(rules.map((r) => r.template));
      return { rules: rules.map(view), templates: ALERT_TEMPLATES.map((t) => t.key).filter((k) => !used.has(k)) };
    },

    create: (teamSlug: string, actor: string, input: RuleInput) => create(teamSlug, actor, input),

    /** A built-in template switched on: its search and condition, mailed to the admin who switched it on unless told otherwise. */
    enableTemplate(teamSlug: string, actor: string, key: AlertTemplateKey, name: string, destinations?: AlertDestinationInput[]) {
      const t = ALERT_TEMPLATES.find((x) => x.key === key);
      if (!t) throw notFound();
      return create(
        teamSlug,
        actor,
        {
          name,
          filters: t.filters,
          condition: t.condition,
          cooldown_minutes: t.cooldown_minutes,
          destinations: destinations ?? [{ kind: 'email', recipients: [actor] }],
        },
        t.key,
      );
    },

    async update(teamSlug: string, actor: string, id: string, input: RuleInput) {
      const before = await current(db, teamSlug, id);
      const f = await fields(teamSlug, input, before.template, before);
      await db.transaction(async (tx) => {
        if (await repo.nameTaken(tx, teamSlug, f.name, id)) throw nameTaken();
        await repo.update(tx, id, f);
        await audit(tx, teamSlug, actor, 'alert.rule_updated', { id, name: f.name });
      });
      kick();
      return { rule: view(await current(db, teamSlug, id)) };
    },

    async setEnabled(teamSlug: string, actor: string, id: string, enabled: boolean) {
      const rule = await current(db, teamSlug, id);
      await db.transaction(async (tx) => {
        await repo.lockCursor(tx, teamSlug);
        await repo.setEnabled(tx, id, enabled, (await eventLogReads.head(tx, teamSlug)).seq);
        await audit(tx, teamSlug, actor, 'alert.rule_updated', rule, { enabled });
      });
      kick();
      return { rule: view(await current(db, teamSlug, id)) };
    },

    async remove(teamSlug: string, actor: string, id: string) {
      const rule = await current(db, teamSlug, id);
      await db.transaction(async (tx) => {
        await repo.remove(tx, id);
        await audit(tx, teamSlug, actor, 'alert.rule_deleted', rule);
      });
      return { deleted: true };
    },

    /** A test alert to every destination of the rule: a firing of its own, marked as a test, with no event. */
    async test(teamSlug: string, actor: string, id: string) {
      const rule = await current(db, teamSlug, id);
      const firingId = await db.transaction((tx) =>
        recordFiring(tx, deliver, rule, { windowKey: `test:${randomUUID()}`, group: '', events: [], test: true, actor }),
      );
      return { firing_id: firingId ?? '' };
    },

    async firings(teamSlug: string, id: string, page: { page: number; page_size: number }) {
      await current(db, teamSlug, id);
      const total = await state.countFirings(db, id);
      const rows = await state.firings(db, id, page.page_size, (page.page - 1) * page.page_size);
      const deliveries = await state.deliveries(
        db,
        rows.map((r) => r.id),
      );
      const firings = [];
      for (const f of rows) {
        const seqs = f.event_seqs.map(Number);
        firings.push({
          id: f.id,
          group_key: f.group_key,
          fired_at: new Date(f.fired_at).toISOString(),
          test: f.test,
          event_count: seqs.length,
          events: (await eventLogReads.bySeqs(db, teamSlug, seqs.slice(0, EVENTS_SHOWN))).map(({ team_slug: _t, ...e }) => e),
          deliveries: deliveries
            .filter((d) => d.firing_id === f.id)
            .map(({ destination_id, kind, status, attempts, last_error }) => ({
              destination_id,
              kind: kind as AlertDestinationKind,
              status,
              attempts,
              last_error,
            })),
        });
      }
      return { firings, total, pages: Math.max(1, Math.ceil(total / page.page_size)) };
    },
  };
}
export type AlertsService = ReturnType<typeof createAlertsService>;
