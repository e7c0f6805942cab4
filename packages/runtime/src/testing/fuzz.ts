import type { Endpoint } from '@latchkey/contracts';
import fc from 'fast-check';
import { z } from 'zod';
import { formDocumentBodies, limitNumberBodies, limitQueries, numberFields, queryKeys } from './fuzz-limits.ts';
import { plausibleFor, type Schema, sweepBodies } from './fuzz-plausible.ts';
import { asObject, bodiesFor, HEAVY_BODIES, RAW_BODIES, RAW_QUERIES } from './fuzz-values.ts';

/**
 * The fuzzer, for property tests that no input makes a program answer 500: every call of the
 * program gets bodies shaped like its input schema with hostile values (fuzz-values.ts), plausible
 * bodies with one hostile field at a time (fuzz-plausible.ts), raw bodies and query strings, and
 * inputs at the limits (fuzz-limits.ts).
 */

/** A GET route outside the contracts that reads its query string (a page a browser is sent to). */
export interface FuzzQueryRoute {
  path: string;
  /** The query keys it reads. */
  keys: readonly string[];
}

export interface FuzzCaller {
  name: string;
  /** The Authorization header value, or none for an anonymous caller. */
  authorization?: () => string | undefined;
  /** The calls this caller makes (all by default): a device credential on a console call only tests the guard again. */
  calls?: (endpoint: Endpoint) => boolean;
}

export interface FuzzFailure {
  call: string;
  caller: string;
  status: number;
  body: string;
  reply: string;
}

export interface FuzzReport {
  requests: number;
  /** How many answers each status got, for a check that the signed-in callers got past the guard. */
  statuses: Record<string, number>;
  failures: FuzzFailure[];
}

const isAnswer = (status: number) => status > 0 && status < 500;

const ANSWER_WITHIN_MS = 10_000;

const clip = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}… (${text.length} characters)` : text);

/**
 * Sends every call of `endpoints` `numRuns` generated bodies per caller, then the raw bodies and
 * queries, and reports every answer of 500 or more. The seed is fixed: a failure reproduces.
 */
export async function fuzzProgram(options: {
  url: string;
  endpoints: readonly Endpoint[];
  callers: readonly FuzzCaller[];
  numRuns: number;
  seed: number;
  /** Headers for each request, e.g. a new X-Forwarded-For so per-address limits do not stop the hunt early. */
  headers?: () => Record<string, string>;
  /** GET routes outside the contracts that read a query string, sent the same query strings anonymously. */
  queryRoutes?: readonly FuzzQueryRoute[];
}): Promise<FuzzReport> {
  const report: FuzzReport = { requests: 0, statuses: {}, failures: [] };
  const send = async (endpoint: Endpoint, caller: FuzzCaller, contentType: string, body: string, query = '') => {
    const headers: Record<string, string> = { ...options.headers?.() };
    const authorization = caller.authorization?.();
    if (authorization) headers.authorization = authorization;
    if (endpoint.method === 'POST') headers['content-type'] = contentType;
    const started = Date.now();
    let response: Response;
    let reply: string;
    try {
      response = await fetch(options.url + endpoint.path + query, {
        method: endpoint.method,
        headers,
        ...(endpoint.method === 'POST' ? { body } : {}),
        signal: AbortSignal.timeout(ANSWER_WITHIN_MS),
      });
      reply = await response.text();
    } catch (error) {
      // No answer in time is as bad as a 500: one request could hold a worker.
      const call = `${endpoint.method} ${endpoint.path}${query}`;
      const problem = `no answer after ${Date.now() - started} ms: ${(error as Error).message}`;
      report.failures.push({ call, caller: caller.name, status: 0, body: clip(body), reply: problem });
      return 0;
    }
    report.requests++;
    const key = `${caller.name} ${response.status}`;
    report.statuses[key] = (report.statuses[key] ?? 0) + 1;
    if (response.status >= 500) {
      report.failures.push({
        call: `${endpoint.method} ${endpoint.path}${query}`,
        caller: caller.name,
        status: response.status,
        body: clip(body),
        reply: clip(reply),
      });
    }
    return response.status;
  };

  for (const [index, endpoint] of options.endpoints.entries()) {
    // The callers in parallel: the same work, in about half the time on a machine with cores to spare.
    await Promise.all(
      options.callers
        .filter((caller) => caller.calls?.(endpoint) ?? true)
        .map(async (caller) => {
          const contentType = endpoint.encoding === 'form' ? 'application/x-www-form-urlencoded' : 'application/json';
          const encode = (value: unknown) =>
            endpoint.encoding === 'form'
              ? new URLSearchParams(
                  Object.entries(asObject(value)).map(([k, v]): [string, string] => [
                    k,
                    typeof v === 'string' ? v : (JSON.stringify(v) ?? ''),
                  ]),
                ).toString()
              : JSON.stringify(value);
          // fc.check rather than fc.assert: every call is tried even after one fails, and all are reported.
          await fc.check(
            fc.asyncProperty(bodiesFor(endpoint), fc.constantFrom(...RAW_QUERIES), async (value, query) => {
              const body = encode(value);
              if (endpoint.method === 'GET') return isAnswer(await send(endpoint, caller, contentType, '', query));
              return isAnswer(await send(endpoint, caller, contentType, body));
            }),
            { seed: options.seed + index, numRuns: options.numRuns, endOnFailure: true },
          );
          for (const body of sweepBodies(endpoint, options.seed)) await send(endpoint, caller, contentType, encode(body));
          for (const raw of RAW_BODIES) await send(endpoint, caller, raw.contentType, raw.body);
          if (endpoint.method === 'GET') for (const query of RAW_QUERIES) await send(endpoint, caller, contentType, '', query);
          // Past the guard only: an anonymous caller of a signed-in call is refused before its input is read.
          if (endpoint.auth === 'public' || caller.authorization)
            await sendAtLimits(endpoint, (type, body, query) => send(endpoint, caller, type, body, query));
        }),
    );
  }
  // Pages outside the contracts that read a query string: anyone may open them.
  for (const route of options.queryRoutes ?? []) {
    const endpoint = { method: 'GET', path: route.path } as Endpoint;
    const anonymous = { name: 'anonymous' };
    for (const query of [...RAW_QUERIES, ...limitQueries(route.keys)]) await send(endpoint, anonymous, '', '', query);
  }
  // Deep and oversized bodies: the parser and the body limit are the same for every call.
  const first = options.endpoints.find((e) => e.method === 'POST');
  const anyone = options.callers[0];
  if (first && anyone) {
    for (const body of HEAVY_BODIES) await send(first, anyone, 'application/json', body);
    for (const query of RAW_QUERIES) await send(first, anyone, 'application/json', '{}', query);
  }
  return report;
}

/**
 * One call at the limits: each number field as each literal at the limits, each query key it
 * reads set to them, and for a form, each text field carrying each document.
 */
async function sendAtLimits(
  endpoint: Endpoint,
  send: (contentType: string, body: string, query?: string) => Promise<number>,
): Promise<void> {
  const schema = z.toJSONSchema(endpoint.input, { io: 'input', unrepresentable: 'any' }) as Schema;
  const plausible = plausibleFor(schema, 1);
  if (endpoint.encoding === 'form') {
    for (const body of formDocumentBodies(plausible)) await send('application/x-www-form-urlencoded', body);
  } else if (endpoint.method !== 'GET') {
    for (const body of limitNumberBodies(plausible, numberFields(endpoint))) await send('application/json', body);
  }
  const keys = queryKeys(endpoint);
  if (keys.length === 0) return;
  const body = endpoint.method === 'GET' ? '' : JSON.stringify(plausible);
  for (const query of limitQueries(keys)) await send('application/json', body, query);
}
