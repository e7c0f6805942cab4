// The team's licences: how many it has (teams.total_licences, -1: unlimited) against how many of its
// current members hold one (the members room counts them).
import type { Queryable } from '@latchkey/runtime';
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
