import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

type Directive = (request: IncomingMessage, response: ServerResponse) => string;

/**
 * Helmet's security headers on every reply. They change only with the values of the CSP
 * directives given as functions (the Hubs set up now), so helmet builds and checks them once per
 * such value, not on every request (it re-validates a CSP with a function in it each time).
 */
export function addSecurityHeaders(app: FastifyInstance, options: Readonly<HelmetOptions>): void {
  const apply = helmet(options);
  const csp = options.contentSecurityPolicy;
  const dynamic: Directive[] = [];
  for (const values of typeof csp === 'object' ? Object.values(csp.directives ?? {}) : []) {
    if (values && typeof values === 'object') for (const v of values) if (typeof v === 'function') dynamic.push(v as Directive);
  }
  let made: { key: string; headers: [string, string][] } | undefined;

  const headersFor = (key: string, request: IncomingMessage): [string, string][] => {
    if (made?.key === key) return made.headers;
    const headers: [string, string][] = [];
    // Helmet only sets and removes headers: a stand-in response records what it sets.
    const recorder = { setHeader: (name: string, value: string) => void headers.push([name, value]), removeHeader: () => {} };
    let failed: unknown;
    apply(request, recorder as unknown as ServerResponse, (error?: unknown) => {
      failed = error;
    });
    if (failed) throw failed;
    made = { key, headers };
    return headers;
  };

  app.addHook('onRequest', (request, reply, done) => {
    try {
      // Set on the raw response, as helmet does, so a hijacked reply carries them too.
      for (const [name, value] of headersFor(dynamic.map((d) => d(request.raw, reply.raw)).join('\n'), request.raw)) {
        reply.raw.setHeader(name, value);
      }
      done();
    } catch (error) {
      done(error as Error);
    }
  });
}
