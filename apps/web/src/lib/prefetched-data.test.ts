import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callQuery } from './api.ts';
import { rememberPrefetch } from './prefetch.ts';
import { type Session, setSession } from './session.ts';

const session = { email: 'alex@northwind.example', team_slug: 'northwind', token: {}, hub: null } as unknown as Session;
const owner = `${session.email} ${session.team_slug}`;

afterEach(() => setSession(null));

describe("a query's first data from a prefetched call", () => {
  it('is there on the first read when the answer has arrived, shaped as the query shapes it, and fresh', async () => {
    setSession(session);
    await rememberPrefetch('allTeams', {}, owner, async () => ({ teams: [{ team_slug: 'northwind' }] }));
    const queryFn = vi.fn(async () => []);
    const client = new QueryClient({ defaultOptions: { queries: { staleTime: 15_000 } } });
    const observer = new QueryObserver(client, {
      queryKey: ['team', 'northwind', 'teams'],
      ...callQuery('allTeams', {}, (answer) => answer.teams),
      queryFn,
    });
    const first = observer.getCurrentResult();
    expect(first.status).toBe('success');
    expect(first.data).toEqual([{ team_slug: 'northwind' }]);
    expect(first.isStale).toBe(false);
    // Mounted, it does not ask again for what it already has.
    const stop = observer.subscribe(() => {});
    expect(queryFn).not.toHaveBeenCalled();
    stop();
  });

  it('is not there while the answer is on its way, nor for another session: the query calls', () => {
    setSession(session);
    rememberPrefetch('adminInfo', {}, owner, () => new Promise(() => {}));
    expect(callQuery('adminInfo', {}).initialData()).toBeUndefined();
    rememberPrefetch('teamInfo', {}, 'someone else', async () => ({ team_name: 'Other' }));
    expect(callQuery('teamInfo', {}).initialData()).toBeUndefined();
  });
});
