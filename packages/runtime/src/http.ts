import type { Endpoint, ErrorReply } from '@latchkey/contracts';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { z } from 'zod';
import { databaseInputError } from './database-errors.ts';
import { AppError } from './errors.ts';
import { assertSafeText } from './input-text.ts';

export interface HttpOptions {
  logLevel: string;
  /** Validate every reply against its contract (tests and development). */
  checkReplies: boolean;
  /** Fastify's trustProxy: false, a number of proxy hops, or the proxies' addresses (see `trustProxySetting`). */
  trustProxy?: boolean | number | string;
}

/** Fields whose values never reach a log line. */
const REDACT = ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'];

export function createHttpApp(options: HttpOptions): FastifyInstance {
  const app = Fastify({
    logger: { level: options.logLevel, redact: REDACT },
    // A number of hops as the function Fastify's types take: the socket and the N-1 proxies behind the outermost are trusted.
    trustProxy: typeof options.trustProxy === 'number' ? trustHops(options.trustProxy) : (options.trustProxy ?? false),
    bodyLimit: 1024 * 1024,
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });
  app.setErrorHandler((error: unknown, request, reply) => sendError(request, reply, error));
  // Before any guard or handler reads the input: text the database cannot store is refused here,
  // for every route, in the body, the query string and the path, however deeply nested.
  app.addHook('preValidation', async (request) => assertSafeText(request.params, request.query, request.body));
  app.setNotFoundHandler((_request, reply) => {
    reply.code(404).send({ code: 'not_found', description: 'No such call.' } satisfies ErrorReply);
  });
  app.decorate('checkReplies', options.checkReplies);
  return app;
}

/** The one place failures become the spec's reply shape (spec §8). */
export function sendError(request: FastifyRequest, reply: FastifyReply, error: unknown): FastifyReply {
  if (error instanceof AppError) {
    const body: ErrorReply = { code: error.code, description: error.description };
    if (error.issues) body.issues = error.issues;
    if (error.messageKey) body.message_key = error.messageKey;
    if (error.messageValues) body.message_values = error.messageValues;
    const retryAfter = (error as { retryAfterSeconds?: unknown }).retryAfterSeconds;
    if (typeof retryAfter === 'number') reply.header('retry-after', String(Math.max(1, Math.ceil(retryAfter))));
    return reply.code(error.status).send(body);
  }
  if (error instanceof z.ZodError) {
    return reply.code(400).send(invalidInput(error));
  }
  const refused = databaseInputError(error);
  if (refused) {
    request.log.warn({ err: error }, 'database refused the input');
    return sendError(request, reply, refused);
  }
  const status = (error as { statusCode?: number }).statusCode ?? 500;
  if (status === 429) {
    return reply.code(429).send({ code: 'too_many_requests_msg', description: 'Too many requests. Try again later.' });
  }
  if (status >= 400 && status < 500) {
    const message = (error as Error).message ?? 'Bad request.';
    return reply.code(status).send({ code: 'invalid_input', description: message });
  }
  request.log.error({ err: error }, 'unhandled error');
  return reply.code(500).send({ code: 'internal_error', description: 'Something went wrong.' });
}

function acceptsBodyType(request: FastifyRequest, endpoint: Endpoint): boolean {
  const type = String(request.headers['content-type'] ?? '').toLowerCase();
  if (!type || type.startsWith('application/json')) return true;
  return endpoint.encoding === 'form' && type.startsWith('application/x-www-form-urlencoded');
}

export function invalidInput(error: z.ZodError): ErrorReply {
  const issues = error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  return { code: 'invalid_input', description: issues[0]?.message ?? 'Invalid input.', issues };
}

export type Handler<E extends Endpoint, Ctx> = (args: {
  input: z.output<E['input']>;
  ctx: Ctx;
  request: FastifyRequest;
  reply: FastifyReply;
}) => Promise<z.input<E['output']>>;

/**
 * Registers a contract: authenticate → validate → authorize → handler → reply, in that order for
 * every call, so no handler can forget a step.
 */
export function registerEndpoint<E extends Endpoint, Ctx>(
  app: FastifyInstance,
  endpoint: E,
  guard: (request: FastifyRequest, endpoint: Endpoint) => Promise<Ctx>,
  handler: Handler<E, Ctx>,
): void {
  app.route({
    method: endpoint.method,
    url: endpoint.path,
    handler: async (request, reply) => {
      // Bodies are JSON, except the one call the spec sends as a form (the OAuth refresh): a
      // cross-site form post then never reaches a handler, whatever it carries.
      if (endpoint.method !== 'GET' && !acceptsBodyType(request, endpoint))
        throw new AppError('invalid_input', 'Send the body as application/json.', 415);
      const ctx = await guard(request, endpoint);
      const raw = endpoint.method === 'GET' ? request.query : (request.body ?? {});
      const parsed = endpoint.input.safeParse(raw);
      if (!parsed.success)
        throw new AppError('invalid_input', invalidInput(parsed.error).description, 400, invalidInput(parsed.error).issues);
      const result = await handler({ input: parsed.data as z.output<E['input']>, ctx, request, reply });
      if ((app as unknown as { checkReplies: boolean }).checkReplies) {
        const checked = endpoint.output.safeParse(result);
        // A reply that breaks its own contract is the program's fault: a 500, never the caller's 400.
        if (!checked.success) throw new Error(`${endpoint.path} broke its reply contract: ${checked.error.message}`);
      }
      return result;
    },
  });
}

function trustHops(hops: number) {
  return (_address: string, hop: number) => hop < hops;
}
