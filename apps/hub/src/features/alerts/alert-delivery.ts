import type { AlertDestination } from '@latchkey/contracts';
import type { Db, JobLog, Jobs, MailOutbox, Sealer } from '@latchkey/runtime';
import { eventLogReads } from '../eventlogs/index.ts';
import { openSecrets } from './alert-destinations.ts';
import type { DeliverJob } from './alert-firing.ts';
import type { AlertMessage } from './alert-messages.ts';
import type { RecipientCheck } from './alert-recipients.ts';
import { sendAlert } from './alert-senders.ts';
import { alertStateRepository as state } from './alert-state.repository.ts';
import { alertsRepository as repo } from './alerts.repository.ts';

/** Events a message carries (the console's history has them all). */
const EVENTS_SENT = 100;

export interface AlertDeliveryOptions {
  db: Db;
  jobs: Jobs;
  mail: MailOutbox;
  sealer: Sealer;
  log: JobLog;
  /** Where the console is (the rule's history link). */
  consoleUrl: string;
  ca?: string | undefined;
  retry: { limit: number; delaySeconds: number };
  /** How long a delivery is held by the Hub running it: one killed mid-send is retried once it ends. */
  leaseSeconds: number;
  /** Who of an e-mail's recipients are the team's administrators now (the licence server's answer). */
  recipients: RecipientCheck;
}

/**
 * An e-mail destination narrowed to the recipients who are still the team's administrators (one
 * removed since the rule was saved no longer receives its alerts), and a note naming the others.
 * Without an answer from the licence server it throws: nothing goes to unchecked addresses.
 */
async function stillAdmins(check: RecipientCheck, teamSlug: string, d: Extract<AlertDestination, { kind: 'email' }>) {
  const verdict = await check(teamSlug, d.recipients);
  if (verdict.kind === 'unreachable')
    // The queue tries again later; nothing goes to unchecked addresses.
    throw new Error('The licence server could not confirm the recipients are administrators; nothing was sent yet.');
  // A registration without a server address has no list: nobody is confirmed.
  const admins = verdict.kind === 'checked' ? verdict.admins : new Set<string>();
  const kept = d.recipients.filter((r) => admins.has(r.toLowerCase()));
  const dropped = d.recipients.filter((r) => !admins.has(r.toLowerCase()));
  const note = dropped.length ? `Not sent to ${dropped.join(', ')}: no longer an administrator of the team.` : null;
  return { destination: { ...d, recipients: kept }, note };
}

/**
 * Each destination of a firing is a job of its own, retried with backoff by the queue: one
 * destination down does not hold back the others, and each attempt is kept on the delivery.
 */
export function defineAlertDelivery(o: AlertDeliveryOptions) {
  async function deliver({ firing_id, destination_id }: DeliverJob, attempt: number) {
    const firing = await state.firing(o.db, firing_id);
    if (!firing) return;
    const rule = await repo.byId(o.db, firing.team_slug, firing.rule_id);
    const destination = rule?.destinations.find((d) => d.id === destination_id);
    // The rule or the destination was removed since: nothing is sent where the admin no longer wants it.
    if (!rule || !destination) return;
    const seqs = firing.event_seqs.slice(0, EVENTS_SENT).map(Number);
    const message: AlertMessage = {
      firingId: firing.id,
      teamSlug: firing.team_slug,
      rule: { id: rule.id, name: rule.name },
      test: firing.test,
      group: firing.group_key,
      firedAt: firing.fired_at.toISOString(),
      eventCount: firing.event_seqs.length,
      events: await eventLogReads.bySeqs(o.db, firing.team_slug, seqs),
      link: `${o.consoleUrl}/#/eventlogs/alerts?rule=${rule.id}`,
    };
    const final = attempt > o.retry.limit;
    let note: string | null = null;
    try {
      let target = destination;
      if (destination.kind === 'email') {
        const checked = await stillAdmins(o.recipients, firing.team_slug, destination);
        ({ destination: target, note } = checked);
        if (note)
          o.log.info({ firing: firing_id, destination: destination_id }, 'alert recipients no longer administrators left out');
        // Nobody left to mail: failed at once, with the reason (trying again would not change it).
        if (checked.destination.recipients.length === 0) {
          await state.attempted(o.db, firing_id, destination_id, note, true);
          return;
        }
      }
      await sendAlert(target, openSecrets(o.sealer, rule.secrets_sealed), message, { mail: o.mail, db: o.db, ca: o.ca });
    } catch (error) {
      const why = error instanceof Error ? error.message : 'The delivery failed.';
      await state.attempted(o.db, firing_id, destination_id, why, final);
      o.log.warn({ firing: firing_id, destination: destination_id, error: why }, 'alert delivery failed');
      throw error;
    }
    await state.attempted(o.db, firing_id, destination_id, null, final, note);
  }

  return o.jobs.define<DeliverJob>('alert-deliver', (data, job) => deliver(data, job.attempt), {
    retryLimit: o.retry.limit,
    retryDelaySeconds: o.retry.delaySeconds,
    expireInSeconds: o.leaseSeconds,
    concurrency: 4,
  });
}
