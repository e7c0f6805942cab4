import type { Queryable } from '@latchkey/runtime';

/** How long an instance trusts its copy of the Hub origins before reading them again. */
const HUB_ORIGINS_TTL_MS = 15_000;

/**
 * The origins of every Hub that has been set up (hubs.server_url), for the CSP's connect-src.
 * The policy is sent before sign-in, so it cannot be the caller's team's Hubs: it is every
 * configured Hub, which is still far narrower than "any https:". Read at most once per TTL per
 * instance (one small query), so a Hub set up or removed on any instance shows within the TTL;
 * `refresh()` makes it immediate on this one.
 */
export function createHubOrigins(db: Queryable, ttlMs = HUB_ORIGINS_TTL_MS) {
  let origins: string[] = [];
  let readAt = 0;
  let pending: Promise<void> | null = null;

  async function refresh(): Promise<void> {
    const rows = await db.query<{ server_url: string }>('select distinct server_url from hubs where server_url is not null');
    const next = new Set<string>();
    for (const { server_url } of rows) if (URL.canParse(server_url)) next.add(new URL(server_url).origin);
    origins = [...next].sort();
    readAt = Date.now();
  }

  return {
    refresh,
    /** Reads the origins again when the copy is older than the TTL; parallel requests share one read. */
    async fresh(): Promise<void> {
      if (Date.now() - readAt < ttlMs) return;
      pending ??= refresh().finally(() => {
        pending = null;
      });
      await pending;
    },
    /** The CSP source list: space-separated origins (helmet joins directive values with spaces). */
    get current(): string[] {
      return origins;
    },
  };
}
export type HubOrigins = ReturnType<typeof createHubOrigins>;
