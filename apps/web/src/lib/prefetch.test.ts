import { afterEach, describe, expect, it, vi } from 'vitest';
import { FAILED, PREFETCH_TTL_MS, rememberPrefetch, takeArrivedPrefetch, takePrefetch } from './prefetch.ts';

afterEach(() => vi.useRealTimers());

describe('prefetched calls (cold load)', () => {
  it('hands the answer to the first matching call only, once', async () => {
    const start = vi.fn(async () => ({ team_name: 'Northwind' }));
    rememberPrefetch('teamInfo', {}, 'alex', start);
    rememberPrefetch('teamInfo', {}, 'alex', start);
    expect(start).toHaveBeenCalledTimes(1);
    expect(takePrefetch('teamInfo', { page: 1 }, 'alex')).toBeNull();
    await expect(takePrefetch('teamInfo', {}, 'alex')).resolves.toEqual({ team_name: 'Northwind' });
    expect(takePrefetch('teamInfo', {}, 'alex')).toBeNull();
  });

  it('never gives one session what another asked for', () => {
    rememberPrefetch('adminInfo', {}, 'alex team-a', async () => ({ user_email: 'alex@a.example' }));
    expect(takePrefetch('adminInfo', {}, 'alex team-b')).toBeNull();
    expect(takePrefetch('adminInfo', {}, 'alex team-a')).toBeNull();
  });

  it('forgets an answer that is no longer fresh', () => {
    vi.useFakeTimers();
    rememberPrefetch('allTeams', {}, 'alex', async () => ({ teams: [] }));
    vi.advanceTimersByTime(PREFETCH_TTL_MS);
    expect(takePrefetch('allTeams', {}, 'alex')).toBeNull();
  });

  it('turns a failure into FAILED, so the caller calls again with its own error handling', async () => {
    rememberPrefetch('auxServices', {}, 'alex', async () => {
      throw new Error('403');
    });
    await expect(takePrefetch('auxServices', {}, 'alex')).resolves.toBe(FAILED);
  });

  it('hands an answer that has arrived over at once, once, and leaves one still on its way to the call', async () => {
    let arrive: (value: unknown) => void = () => {};
    const answer = rememberPrefetch('notification', {}, 'alex', () => new Promise((resolve) => (arrive = resolve)));
    expect(takeArrivedPrefetch('notification', {}, 'alex')).toBeUndefined();
    arrive({ notice: null });
    await answer;
    expect(takeArrivedPrefetch('notification', {}, 'alex team-b')).toBeUndefined();
    expect(takeArrivedPrefetch('notification', {}, 'alex')?.value).toEqual({ notice: null });
    expect(takeArrivedPrefetch('notification', {}, 'alex')).toBeUndefined();
    expect(takePrefetch('notification', {}, 'alex')).toBeNull();
  });

  it('never hands over a failure or a stale answer as arrived', async () => {
    vi.useFakeTimers();
    await rememberPrefetch('authType', {}, 'alex', async () => {
      throw new Error('500');
    });
    expect(takeArrivedPrefetch('authType', {}, 'alex')).toBeUndefined();
    await rememberPrefetch('licenceSummary', {}, 'alex', async () => ({ used: 1 }));
    vi.advanceTimersByTime(PREFETCH_TTL_MS);
    expect(takeArrivedPrefetch('licenceSummary', {}, 'alex')).toBeUndefined();
  });
});
