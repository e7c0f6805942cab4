// The team's licences: how many it has (teams.total_licences, -1: unlimited) against how many of its
// current members hold one (the members room counts them).
import type { Queryable } from '@latchkey/runtime';
import { recordEvent } from '../eventlogs/index.ts';
import { membersRepository } from '../members/index.ts';

/** Locks the team's licence count for the rest of the transaction, so two assignments never both take the last one. */
export async function lockLicences(q: Queryable, teamId: string): Promise<{ total: number; used: number }> {
  const [team] = await q.query<{ total: number }>('select total_licences as total from teams where id = $1 for update', [teamId]);
  return { total: team?.total ?? -1, used: await membersRepository.countLicensed(q, teamId) };
}

/** How many licences the team has (-1: unlimited), read without a lock; null for no such team. */
export async function licenceTotal(q: Queryable, teamId: string): Promise<number | null> {
  const [team] = await q.query<{ total: number }>('select total_licences as total from teams where id = $1', [teamId]);
  return team?.total ?? null;
}

/** The share of its licences in use from which a team is told they are nearly used up (the alert template's). */
export const LICENCES_NEARLY_USED_PERCENT = 95;

/**
 * After an assignment took `taken` licences from `used` (as `lockLicences` read them, under its
 * lock): when it brought the team from under 95 % to 95 % or more, says so in the team's log, once
 * per crossing (an assignment already above it, or an unlimited team, writes nothing).
 */
export async function recordLicencesTaken(
  q: Queryable,
  teamId: string,
  licences: { total: number; used: number },
  taken: number,
): Promise<void> {
  const { total, used } = licences;
  const atLeast = (n: number) => n * 100 >= total * LICENCES_NEARLY_USED_PERCENT;
  if (total <= 0 || taken <= 0 || atLeast(used) || !atLeast(used + taken)) return;
  await recordEvent(q, {
    teamId,
    actor: 'system',
    actorType: 'system',
    activity: 'billing.licences_nearly_used',
    component: 'billing',
    detail: { used: used + taken, total },
  });
}
