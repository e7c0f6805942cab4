import type { TLSSocket } from 'node:tls';
import { type Queryable, SIGNED_CALL_CLOCK_SKEW_SECONDS } from '@latchkey/runtime';
import { userTlsConnect, userUrlFetch } from '../../platform/outbound.ts';

type Found = { verdict: 'ok' | 'warning' | 'problem'; detail: string };

/** The set-up Hubs' addresses, once each (several teams may share one Hub). */
export async function setUpHubAddresses(q: Queryable): Promise<string[]> {
  const rows = await q.query<{ server_url: string }>(
    'select distinct server_url from hubs where server_url is not null and hub_key is not null order by server_url',
  );
  return rows.map((r) => r.server_url);
}

/**
 * Each set-up Hub answers its health call, and its clock is close to ours: a signed call is refused
 * once the two clocks are further apart than the signed call's tolerance.
 */
export async function hubReachability(q: Queryable, now = () => Date.now()): Promise<Found[]> {
  const hubs = await setUpHubAddresses(q);
  if (!hubs.length) return [{ verdict: 'ok', detail: 'no Hub is set up' }];
  return Promise.all(
    hubs.map(async (hub): Promise<Found> => {
      const sent = now();
      let response: Response;
      try {
        response = await userUrlFetch(new URL('/healthz', hub), { method: 'GET', signal: AbortSignal.timeout(5_000) });
      } catch (error) {
        return { verdict: 'problem', detail: `${hub} cannot be reached: ${(error as Error).message}` };
      }
      if (!response.ok) return { verdict: 'problem', detail: `${hub} answered its health call with HTTP ${response.status}` };
      const date = Date.parse(response.headers.get('date') ?? '');
      if (Number.isNaN(date))
        return { verdict: 'warning', detail: `${hub} is reachable; it sent no Date, so its clock is unknown` };
      // The Date header counts whole seconds: compare it with the middle of the call, to within a second.
      const skew = Math.round(Math.abs(date - (sent + now()) / 2) / 1000);
      const words = `${hub} is reachable; its clock is ${skew} s from ours`;
      if (skew > SIGNED_CALL_CLOCK_SKEW_SECONDS) {
        return { verdict: 'problem', detail: `${words}: signed calls are refused beyond ${SIGNED_CALL_CLOCK_SKEW_SECONDS} s` };
      }
      if (skew > SIGNED_CALL_CLOCK_SKEW_SECONDS / 3) return { verdict: 'warning', detail: `${words}: set both clocks by NTP` };
      return { verdict: 'ok', detail: words };
    }),
  );
}

/** The Hubs served over HTTPS, for the certificate check, connected through the outbound guard. */
export async function hubTlsEndpoints(
  q: Queryable,
): Promise<{ label: string; host: string; port: number; connect: () => Promise<TLSSocket> }[]> {
  return (await setUpHubAddresses(q))
    .map((address) => new URL(address))
    .filter((url) => url.protocol === 'https:')
    .map((url) => {
      const port = Number(url.port || 443);
      return { label: 'Hub', host: url.hostname, port, connect: () => userTlsConnect(url.hostname, port) };
    });
}
