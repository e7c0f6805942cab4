import { describe, expect, test } from 'vitest';
import { lintMigrations, migrationProblems } from './lint-migrations.mjs';

describe('migrations expand, then contract', () => {
  test.each([
    ['alter table hubs drop column secret;', 'drops a column'],
    ['drop table used_nonces;', 'drops a table'],
    ['alter table members rename column name to full_name;', 'renames a column'],
    ['alter table members rename to people;', 'renames a table'],
    ['alter table members alter column usage type text;', "changes a column's type"],
    ['alter table members alter column name set not null;', 'makes a column required'],
    ['alter table members add column region text not null;', 'adds a required column without a default'],
  ])('refuses %s', (sql, why) => {
    const [problem] = migrationProblems('0099_x.sql', `-- what it does\n${sql}\n`);
    expect(problem).toContain(why);
    expect(problem).toContain('0099_x.sql');
  });

  test.each([
    'alter table members add column region text;',
    "alter table members add column region text not null default 'eu';",
    'create index members_region on members (region);',
    'create table regions (id int primary key);',
    '-- drop table members; is only a comment\nselect 1;',
  ])('lets %s through', (sql) => {
    expect(migrationProblems('0099_x.sql', sql)).toEqual([]);
  });

  test('a migration that says what it contracts, and since when nothing uses it, may contract', () => {
    expect(
      migrationProblems('0099_x.sql', '-- contract: hubs.secret; unused since release 1.4\nalter table hubs drop column secret;'),
    ).toEqual([]);
  });

  test("the tree's migrations keep the rule", () => {
    expect(lintMigrations(new URL('..', import.meta.url).pathname)).toEqual([]);
  });
});
