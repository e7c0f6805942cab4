import type { Queryable } from '@latchkey/runtime';

/**
 * Demo devices: every member who has used the apps has one to three (desktop app, phone, browser
 * extension), most of them authenticated with the Hub; members who never used the apps have none.
 */
export async function seedDevicesDemo(tx: Queryable, northwind: string): Promise<void> {
  await tx.query(
    `insert into member_devices (team_id, member_id, device_id, name, type, os, os_version, browser, app_version,
       first_seen_at, last_seen_at, hub_authenticated_at)
     select m.team_id, m.id, d.kind || '-' || substr(md5(m.email), 1, 8),
       case d.kind when 'desktop' then split_part(m.name, ' ', 1) || '''s ' || (case when h % 3 = 0 then 'MacBook Pro' else 'ThinkPad' end)
                   when 'mobile' then split_part(m.name, ' ', 1) || '''s ' || (case when h % 2 = 0 then 'iPhone' else 'Pixel' end)
                   else (case when h % 2 = 0 then 'Chrome' else 'Firefox' end) || ' extension' end,
       case d.kind when 'extension' then 'browser_extension' else d.kind end,
       case d.kind when 'desktop' then (case when h % 3 = 0 then 'macOS' else 'Windows' end)
                   when 'mobile' then (case when h % 2 = 0 then 'iOS' else 'Android' end)
                   else (case when h % 3 = 0 then 'macOS' else 'Windows' end) end,
       case d.kind when 'desktop' then (case when h % 3 = 0 then '15.4' else '11' end)
                   when 'mobile' then (case when h % 2 = 0 then '18.3' else '15' end)
                   else (case when h % 3 = 0 then '15.4' else '11' end) end,
       case when d.kind = 'extension' then (case when h % 2 = 0 then 'Chrome 132' else 'Firefox 134' end) end,
       case when h % 4 = 0 then '8.3.1' else '8.4.0' end,
       m.onboarded_at,
       coalesce(m.last_active_at, now() - interval '20 days') - d.n * interval '5 hours',
       case when m.usage = 'active' and h % 5 <> 1 then coalesce(m.last_active_at, now()) - d.n * interval '5 hours' end
     from (select *, abs(hashtext(email)) as h from members where team_id = $1 and deboarded_at is null and usage <> 'unresponsive') m
     cross join lateral (values ('desktop', 0), ('mobile', 1), ('extension', 2)) as d (kind, n)
     where d.n <= m.h % 3`,
    [northwind],
  );
}
