import type { Endpoint, Program } from '@latchkey/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Handler, registerEndpoint } from './http.ts';

type Guard<Ctx> = (request: FastifyRequest, endpoint: Endpoint) => Promise<Ctx>;

/**
 * A program's router: the only way its features answer calls. Every handler must be for one of
 * the program's declared endpoints, and `complete()` (at the end of start-up) refuses to start
 * while a declared endpoint has no handler, so a call is never declared but not served, nor
 * served but not declared (and then missing from the OpenAPI document and the console's map).
 */
export interface Router {
  handle<E extends Endpoint, Ctx>(endpoint: E, guard: Guard<Ctx>, handler: Handler<E, Ctx>): void;
  /**
   * A router whose handlers are accounted for but not served: the calls of a service this
   * program's version does not run (the Hub's audit before its version). They answer 404 and are
   * left out of the OpenAPI document.
   */
  withheld(): Router;
  /** Checks every declared endpoint has its handler (throws otherwise); returns those served. */
  complete(): Endpoint[];
}

export function createRouter(app: FastifyInstance, program: Program, endpoints: readonly Endpoint[]): Router {
  const declared = new Set(endpoints);
  const served: Endpoint[] = [];
  const handled = new Set<Endpoint>();
  const account = (endpoint: Endpoint) => {
    if (!declared.has(endpoint)) throw new Error(`${endpoint.name} (${endpoint.path}) is not declared as a ${program} call.`);
    if (handled.has(endpoint)) throw new Error(`${endpoint.name} has two handlers.`);
    handled.add(endpoint);
  };
  const router: Router = {
    handle(endpoint, guard, handler) {
      account(endpoint);
      registerEndpoint(app, endpoint, guard, handler);
      served.push(endpoint);
    },
    withheld: () => ({
      handle: (endpoint) => account(endpoint),
      withheld: () => router.withheld(),
      complete: () => router.complete(),
    }),
    complete() {
      const missing = endpoints.filter((e) => !handled.has(e)).map((e) => e.name);
      if (missing.length > 0) throw new Error(`The ${program} has no handler for: ${missing.join(', ')}.`);
      return [...served];
    },
  };
  return router;
}
