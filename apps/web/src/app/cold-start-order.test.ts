import { beforeEach, describe, expect, it, vi } from 'vitest';

// The calls the cold load starts, in order; each answers only when the test says so.
const started: string[] = [];
const answers = new Map<string, (value: unknown) => void>();
vi.mock('../lib/api.ts', () => ({
  prefetchCall: (name: string) => {
    if (!answers.has(name)) started.push(name);
    return new Promise((resolve) => answers.set(name, resolve));
  },
}));
vi.mock('../lib/session.ts', () => ({ getSession: () => ({ email: 'a@b.example', team_slug: 'northwind' }) }));
vi.mock('./layout/Shell.tsx', () => ({}));
vi.mock('./landing-screens.ts', () => ({}));

const { startColdLoad } = await import('./cold-start.ts');

const team = {
  team_type: 'organization',
  organization_type: 'enterprise',
  business_cloud: 'eu',
  benefit: { grant_subscription: false },
};
const flush = () => new Promise((r) => setTimeout(r, 0));

describe('the landing screen’s calls at a cold load', () => {
  beforeEach(() => {
    started.length = 0;
    answers.clear();
  });

  it('go once the team and the scopes allow the screen, without waiting for the Hub’s services', async () => {
    startColdLoad('#/users');
    answers.get('teamInfo')?.(team);
    answers.get('adminScope')?.({ scope: ['super_admin'] });
    await flush();
    // auxServices has not answered, and the members list is asked for all the same.
    expect(started).toContain('members');
    expect(started).toContain('membersCount');
  });

  it('are not asked for when the scopes do not allow the screen', async () => {
    startColdLoad('#/users');
    answers.get('teamInfo')?.(team);
    answers.get('adminScope')?.({ scope: ['recovery_agent'] });
    answers.get('auxServices')?.({ servers: [] });
    await flush();
    expect(started).not.toContain('members');
  });
});
