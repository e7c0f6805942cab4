-- A policy change made under four-eyes approval keeps who approved it beside who asked for it
-- (the history shows both); every other change has none.
alter table policy_history add column approved_by text[] not null default '{}';
