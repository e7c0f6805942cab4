import { randomUUID } from 'node:crypto';
import { type ActivityCode, type SiemTool, type SiemToolName, siemSecretMoved } from '@latchkey/contracts';
import { AppError, type Db, type Jobs } from '@latchkey/runtime';
import { eventLogReads, recordHubEvents } from '../eventlogs/index.ts';
import { requiredSecrets, SECRET_FIELDS, SENDERS, type SiemConfig, type SiemEvent } from './senders.ts';
import { type DestinationRow, siemRepository as repo } from './siem.repository.ts';
import { createSiemDelivery, type SiemDeliveryOptions, senderContext } from './siem-delivery.ts';

/** How long a save or a test waits for a destination's late confirmation of its test event. */
const TEST_CONFIRM_WAIT_MS = 3_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

const notFound = () => new AppError('not_found', 'No SIEM destination is configured.').shows('errors.siem_not_found');
const unreachable = (message: string) =>
  new AppError('url_not_accessible', `The destination did not take a test event: ${message}`).shows('siem_url_unreachable');

/**
 * SIEM export: the team's destination (one per team, spec §3 "SIEM tool"), its state (spec §4:
 * configured inactive → active; while inactive, tested, pending a late confirmation of its test
 * event, or waiting for a test that passes), a test event before it is saved, and its delivery
 * (siem-delivery.ts).
 */
export function createSiemService(db: Db, jobs: Jobs, o: SiemDeliveryOptions) {
  const delivery = createSiemDelivery(db, jobs, o);

  async function view(d: DestinationRow): Promise<SiemTool> {
    const head = await eventLogReads.head(db, d.team_slug);
    const secrets = SECRET_FIELDS[d.siem_tool];
    const cursor = Number(d.cursor_seq);
    return {
      id: d.id,
      siem_tool: d.siem_tool,
      is_active: d.is_active,
      status: d.status,
      last_synced: d.last_success_at ? Math.floor(new Date(d.last_success_at).getTime() / 1000) : null,
      config: Object.fromEntries(Object.entries(d.config).filter(([k]) => !secrets.includes(k))),
      has_secret: secrets.some((k) => Boolean(d.config[k])),
      health: {
        cursor_seq: cursor,
        head_seq: head.seq,
        lag: Math.max(0, head.seq - cursor),
        delivered_count: Number(d.delivered_count),
        last_error: d.last_error,
        last_success_at: d.last_success_at ? new Date(d.last_success_at).toISOString() : null,
        last_attempt_at: d.last_attempt_at ? new Date(d.last_attempt_at).toISOString() : null,
      },
    };
  }

  async function sendTest(tool: SiemToolName, config: SiemConfig, teamSlug: string, requestChannel: string) {
    const now = new Date().toISOString();
    const event: SiemEvent = {
      team_slug: teamSlug,
      id: randomUUID(),
      seq: 0,
      actor: 'system',
      actor_type: 'system',
      activity: 'siem.test',
      component: 'event_logs',
      target: '',
      ip: '',
      device: '',
      occurred_at: now,
      recorded_at: now,
      outcome: 'success',
      detail: { message: 'Latchkey test event' },
      prev_hash: '',
      hash: '',
    };
    const why = (error: unknown) => (error instanceof Error ? error.message : 'no answer');
    let confirmed: Promise<void> | undefined;
    try {
      confirmed = (await SENDERS[tool]([event], config, senderContext(o, requestChannel)))?.confirmed;
    } catch (error) {
      throw unreachable(why(error));
    }
    if (!confirmed) return null;
    // A destination that confirms later (Splunk's indexer acknowledgement) is waited for a moment;
    // past that the save goes through as pending and the confirmation lands in the background.
    const outcome = confirmed.then(
      () => null,
      (error: unknown) => why(error),
    );
    const early = await Promise.race([outcome, sleep(TEST_CONFIRM_WAIT_MS).then(() => 'waiting' as const)]);
    if (early === null) return null;
    if (early !== 'waiting') throw unreachable(early);
    // Wrapped: an async function returning the promise itself would wait for it.
    return { outcome };
  }

  /** A test event's late confirmation moves a destination still pending to tested, or to waiting for a test. */
  function settleLater(id: string, outcome: Promise<string | null>) {
    void outcome
      .then((refusal) =>
        repo.testOutcome(db, id, refusal === null ? 'tested' : 'awaiting_config_verification', refusal, ['pending']),
      )
      .catch(() => undefined);
  }

  async function current(teamSlug: string, id: string) {
    const d = await repo.forTeam(db, teamSlug);
    if (!d || d.id !== id) throw notFound();
    return d;
  }

  return {
    start: delivery.start,
    stop: delivery.stop,
    kick: delivery.kick,

    async tool(teamSlug: string) {
      const d = await repo.forTeam(db, teamSlug);
      return d ? { code: 'ok' as const, data: await view(d) } : { code: 'not_found' as const, data: null };
    },

    async configure(
      teamSlug: string,
      actor: string,
      input: { siem_tool: SiemToolName; id?: string | undefined } & Record<string, unknown>,
    ) {
      const existing = await repo.forTeam(db, teamSlug);
      if (input.id && existing?.id !== input.id) throw notFound();
      if (existing?.is_active)
        throw new AppError('not_allowed', 'Deactivate the SIEM destination before editing it.').shows('errors.siem_edit_active');
      const { team_slug: _t, id: _id, siem_tool, ...fields } = input;
      const config: SiemConfig = {};
      for (const [k, v] of Object.entries(fields)) if (typeof v === 'string' || typeof v === 'boolean') config[k] = v;
      for (const k of requiredSecrets(siem_tool, config)) {
        if (config[k]) continue;
        const kept = existing?.siem_tool === siem_tool ? existing.config[k] : undefined;
        if (!kept)
          throw new AppError('invalid_input', 'this field is required', 400, [{ path: k, message: 'this field is required' }]);
        // Checked before any test event: a stored secret is never sent anywhere it did not go before.
        if (existing && siemSecretMoved(siem_tool, existing.config, config))
          throw new AppError(
            'invalid_input',
            'The destination changed: enter its secret again (a stored secret is never sent to a new address).',
            400,
            [{ path: k, message: 'siem.form.secret_again' }],
          ).shows('siem.form.secret_again');
        config[k] = kept;
      }
      // The webhook signs with a secret of its own: a receiver holding the bearer token cannot forge a delivery.
      if (siem_tool === 'other' && config.signing_secret === config.token)
        throw new AppError('invalid_input', 'The signing secret must not be the token.', 400, [
          { path: 'signing_secret', message: 'siem.form.signing_secret_same' },
        ]);
      // A new destination's channel is made before its first test event, and kept with it.
      const requestChannel = existing?.request_channel ?? randomUUID();
      const outstanding = await sendTest(siem_tool, config, teamSlug, requestChannel);
      const saved = await db.transaction(async (tx) => {
        const head = await eventLogReads.head(tx, teamSlug);
        const status = outstanding ? 'pending' : 'tested';
        const row = await repo.save(tx, teamSlug, siem_tool, config, head.seq, requestChannel, status);
        await recordHubEvents(tx, teamSlug, [
          {
            actor,
            actor_type: 'admin',
            activity: existing ? 'siem.updated' : 'siem.configured',
            component: 'event_logs',
            target: siem_tool,
          },
        ]);
        return row;
      });
      if (outstanding) settleLater(saved.id, outstanding.outcome);
      return { code: 'ok' as const, data: await view(saved) };
    },

    async update(teamSlug: string, actor: string, input: { id: string; action: string; from_timestamp?: number | undefined }) {
      const d = await current(teamSlug, input.id);
      const audit = (activity: ActivityCode, detail: Record<string, string | number> = {}) =>
        db.transaction((tx) =>
          recordHubEvents(tx, teamSlug, [
            { actor, actor_type: 'admin', activity, component: 'event_logs', target: d.siem_tool, detail },
          ]),
        );
      switch (input.action) {
        case 'activate':
          await repo.setActive(db, d.id, true);
          await repo.clearBackoff(db, d.id);
          await audit('siem.activated');
          break;
        case 'deactivate':
          await repo.setActive(db, d.id, false);
          await audit('siem.deactivated');
          break;
        case 'delete':
          if (d.is_active)
            throw new AppError('not_allowed', 'Deactivate the SIEM destination before deleting it.').shows(
              'errors.siem_delete_active',
            );
          await repo.remove(db, d.id);
          await audit('siem.deleted');
          return { code: 'deleted' as const, data: null };
        case 'test': {
          // A refused test is kept: the destination then waits for a test that passes.
          const outstanding = await sendTest(d.siem_tool, d.config, teamSlug, d.request_channel).catch(async (error: unknown) => {
            await repo.testOutcome(db, d.id, 'awaiting_config_verification', error instanceof Error ? error.message : null);
            throw error;
          });
          // A passing test clears pending and waiting; a deactivated destination stays inactive.
          await repo.testOutcome(db, d.id, outstanding ? 'pending' : 'tested', null, [
            'tested',
            'pending',
            'awaiting_config_verification',
          ]);
          if (outstanding) settleLater(d.id, outstanding.outcome);
          await repo.clearBackoff(db, d.id);
          break;
        }
        case 'backfill': {
          if (input.from_timestamp === undefined)
            throw new AppError('invalid_input', 'from_timestamp is required', 400, [
              { path: 'from_timestamp', message: 'this field is required' },
            ]);
          const first = await eventLogReads.firstSeqSince(db, teamSlug, new Date(input.from_timestamp * 1000));
          const head = await eventLogReads.head(db, teamSlug);
          await repo.setCursor(db, d.id, Math.max(0, (first ?? head.seq + 1) - 1));
          await repo.clearBackoff(db, d.id);
          await audit('siem.backfill', { from_timestamp: input.from_timestamp });
          break;
        }
      }
      const after = await repo.byId(db, d.id);
      if (!after) throw notFound();
      delivery.kick();
      return { code: 'ok' as const, data: await view(after) };
    },
  };
}
export type SiemService = ReturnType<typeof createSiemService>;
