import type { Queryable } from '@latchkey/runtime';

/** Demo data for the members screens: bought licences, a few invited and suspended members, a small family. */
export async function seedMembersDemo(tx: Queryable, northwind: string, family: string): Promise<void> {
  // A few licences left, fewer than the members waiting for one.
  await tx.query(
    `update teams set total_licences = 6 + (select count(*) from members where team_id = $1 and deboarded_at is null and licensed)
     where id = $1`,
    [northwind],
  );
  await tx.query('update teams set total_licences = 6 where id = $1', [family]);
  await tx.query(
    `update members set status = 'invited', invited_at = now() - interval '3 days', usage = 'unresponsive'
     where id in (select id from members where team_id = $1 and deboarded_at is null and usage = 'unresponsive' order by email limit 4)`,
    [northwind],
  );
  await tx.query(
    `update members set status = 'suspended'
     where id in (select id from members where team_id = $1 and deboarded_at is null and usage = 'inactive' order by email limit 2)`,
    [northwind],
  );
  await tx.query(
    `update members set last_active_at = now() - (abs(hashtext(email)) % 240) * interval '1 hour'
     where team_id = $1 and usage = 'active'`,
    [northwind],
  );
  await tx.query(
    `insert into members (team_id, email, name, usage, licensed) values
       ($1, 'sam@okafor.example', 'Sam Okafor', 'active', true),
       ($1, 'ngozi@okafor.example', 'Ngozi Okafor', 'active', true),
       ($1, 'tobi@okafor.example', 'Tobi Okafor', 'unresponsive', true)`,
    [family],
  );
}
