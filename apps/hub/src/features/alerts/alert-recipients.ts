import { type AlertDestination, HUB_ADMINS_CHECK_MAX, hubAdminsCheckEndpoint } from '@latchkey/contracts';
import { AppError, type Db } from '@latchkey/runtime';
import type { HubKeys } from '../../platform/keys.ts';
import { signedServerCall } from '../../platform/server-call.ts';
import { registrationsRepository } from '../registrations/index.ts';

/**
 * Which of these addresses are the team's administrators now, as its licence server says; or
 * why there is no answer: `no_server` (the team's registration has no server address, so there is
 * no list to check against) or `unreachable` (anything but a clear answer).
 */
export type RecipientVerdict = { kind: 'checked'; admins: Set<string> } | { kind: 'no_server' } | { kind: 'unreachable' };
export type RecipientCheck = (teamSlug: string, emails: readonly string[]) => Promise<RecipientVerdict>;

/** Asks the team's licence server over the signed Hub → server channel, in batches of the call's maximum. */
export function createRecipientCheck(db: Db, keys: HubKeys): RecipientCheck {
  return async (teamSlug, emails) => {
    const registration = (await registrationsRepository.listForTeam(db, teamSlug)).find((r) => r.server_url);
    if (!registration) return { kind: 'no_server' };
    const asked = [...new Set(emails.map((e) => e.toLowerCase()))];
    const admins = new Set<string>();
    for (let from = 0; from < asked.length; from += HUB_ADMINS_CHECK_MAX) {
      const batch = asked.slice(from, from + HUB_ADMINS_CHECK_MAX);
      const answer = await signedServerCall(keys, registration, hubAdminsCheckEndpoint, teamSlug, {
        team_slug: teamSlug,
        emails: batch,
      });
      if (!answer.ok) return { kind: 'unreachable' };
      for (const email of answer.data.admins) admins.add(email.toLowerCase());
    }
    return { kind: 'checked', admins };
  };
}

const recipientsOf = (destinations: readonly AlertDestination[]) =>
  destinations.flatMap((d, i) => (d.kind === 'email' ? d.recipients.map((email) => ({ email, i })) : []));

/**
 * Before a rule is saved: every e-mail recipient must be one of the team's administrators now.
 * Fails closed: without an answer from the licence server nothing is saved (503), and a Hub
 * registered without a server address takes no e-mail destination (there is no list to check).
 */
export async function requireAdminRecipients(check: RecipientCheck, teamSlug: string, destinations: readonly AlertDestination[]) {
  const recipients = recipientsOf(destinations);
  if (recipients.length === 0) return;
  const verdict = await check(
    teamSlug,
    recipients.map((r) => r.email),
  );
  if (verdict.kind === 'no_server')
    throw new AppError(
      'alert_email_needs_server',
      'This Hub has no licence server address for the team, so it cannot check who its administrators are: choose another destination than e-mail.',
    ).shows('errors.alert_email_needs_server');
  if (verdict.kind === 'unreachable')
    throw new AppError(
      'alert_recipients_unverifiable',
      "The licence server cannot confirm now that the recipients are the team's administrators; nothing has changed. Try again shortly.",
    ).shows('errors.alert_recipients_unverifiable');
  const refused = recipients.filter((r) => !verdict.admins.has(r.email.toLowerCase()));
  if (refused.length === 0) return;
  const emails = [...new Set(refused.map((r) => r.email))].join(', ');
  throw new AppError(
    'alert_recipient_not_admin',
    `Alerts are mailed to the team's administrators only; not an administrator: ${emails}.`,
    400,
    [...new Set(refused.map((r) => r.i))].map((i) => ({
      path: `destinations.${i}.recipients`,
      message: 'errors.alert_recipient_not_admin',
    })),
  ).shows('errors.alert_recipient_not_admin', { emails });
}
