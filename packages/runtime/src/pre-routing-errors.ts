import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

/** An answer to a request Fastify refused before routing it. */
export type PreRoutingErrorHandler = (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => unknown;

export interface PreRoutingErrors {
  /** Answers the refused requests whose path is `prefix` or under it (the first registered prefix wins). */
  register(prefix: string, handler: PreRoutingErrorHandler): void;
}

/**
 * Requests Fastify refuses before any route, hook or error handler sees them: a malformed
 * percent-escape in the path (FST_ERR_BAD_URL) or a path parameter longer than its
 * `maxParamLength` (FST_ERR_MAX_PARAM_LENGTH). Fastify takes one `frameworkErrors` for the whole
 * server; this one hands each request to the handler registered for its path's prefix, so an API
 * with its own error format (SCIM) keeps it, and answers the rest exactly as Fastify does without it.
 */
export function createPreRoutingErrors() {
  const handlers: [string, PreRoutingErrorHandler][] = [];
  const under = (path: string, prefix: string) =>
    path === prefix || path.startsWith(`${prefix}/`) || path.startsWith(`${prefix}?`);
  return {
    register(prefix: string, handler: PreRoutingErrorHandler) {
      handlers.push([prefix, handler]);
    },
    frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
      const own = handlers.find(([prefix]) => under(request.raw.url ?? '', prefix));
      if (own) return own[1](error, request, reply);
      const status = error.statusCode ?? 500;
      const body = {
        error: status >= 500 ? 'Internal Server Error' : 'Bad Request',
        code: error.code,
        message: error.message,
        statusCode: status,
      };
      return reply.code(status).type('application/json').send(JSON.stringify(body));
    },
  };
}
