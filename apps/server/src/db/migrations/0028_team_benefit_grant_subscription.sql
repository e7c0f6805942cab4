-- Spec §3 Team.benefit.grant_subscription: whether the team may grant the family plan to its
-- members as a benefit. Off for a new team; a team that has already used the family plan keeps it.
alter table teams add column benefit_grant_subscription boolean not null default false;
update teams set benefit_grant_subscription = true where id in (select team_id from family_benefits);
