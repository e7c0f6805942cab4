import { appendFileSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { answers, type Endpoint, type ErrorReply } from '@latchkey/contracts';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import { z } from 'zod';
import { databaseInputError } from './database-errors.ts';
import { AppError } from './errors.ts';
import { assertSafeText } from './input-text.ts';
import { createPreRoutingErrors, type PreRoutingErrors } from './pre-routing-errors.ts';
import { REQUEST_ID_HEADER, requestIdFrom, withRequestId } from './request-id.ts';
import { endRequestSpan, startRequestSpan } from './tracing.ts';

export interface HttpOptions {
  /** The program, as its trace spans are named (`latchkey-server`, `latchkey-hub`). */
  program?: string;
  logLevel: string;
  /** Validate every reply against its contract (tests and development). */
  checkReplies: boolean;
  /** Fastify's trustProxy: false, a number of proxy hops, or the proxies' addresses (see `trustProxySetting`). */
  trustProxy?: boolean | number | string;
  /** Where the JSON log lines go (tests read them); standard output by default. */
  logStream?: Writable;
}

export interface ServedRoute {
  method: string;
  url: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every method + URL this app serves (filled as routes are registered). */
    servedRoutes: readonly ServedRoute[];
    /** Who answers, per path prefix, the requests Fastify refuses before routing. */
    preRoutingErrors: PreRoutingErrors;
  }
}

/** Input fields that carry a secret: passwords, tokens, codes, setup keys, device secrets. */
const SECRET_FIELDS = [
  'password',
  'old_password',
  'new_password',
  'confirm_password',
  'token',
  'access_token',
  'refresh_token',
  'set_auth_token',
  'otp',
  'totp',
  'secret',
  'device_secret',
  'setup_key',
  'recovery_code',
  'recovery_codes',
  'otpauth_url',
];

/**
 * Values that never reach a log line, wherever a log call puts them: credentials in headers, and
 * secret input fields at the top level or one level down (`body`, `input`, …). `code` only under a
 * body or input: elsewhere it is an error code, which the log needs.
 */
export const LOG_REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-setup-key"]',
  'headers.authorization',
  'headers.cookie',
  'res.headers["set-cookie"]',
  ...SECRET_FIELDS.flatMap((f) => [f, `*.${f}`, `req.body.${f}`]),
  'code',
  'body.code',
  'input.code',
  'req.body.code',
];

/** Query values whose name says they are a secret (a token in a GET link) are hidden in the logged URL. */
const SECRET_QUERY = /^(.*(token|password|secret|code|otp|key).*)$/i;
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const query = new URLSearchParams(url.slice(at + 1));
  for (const name of [...query.keys()]) if (SECRET_QUERY.test(name)) query.set(name, '[Redacted]');
  return `${url.slice(0, at)}?${query.toString()}`;
}

export function createHttpApp(options: HttpOptions): FastifyInstance {
  const preRouting = createPreRoutingErrors();
  const app = Fastify({
    logger: {
      level: options.logLevel,
      redact: LOG_REDACT,
      serializers: {
        // A request as Fastify logs it, its URL's secret query values hidden; anything else a
        // log call names `req` is left to the redaction paths.
        req: (req: FastifyRequest): Record<string, unknown> =>
          typeof req?.url === 'string' && typeof req.method === 'string'
            ? { method: req.method, url: redactUrl(req.url), host: req.host, remoteAddress: req.ip }
            : (req as unknown as Record<string, unknown>),
      },
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    // One id per request, on every log line of it and in the reply: the caller's X-Request-Id
    // when it is sane (the console sends one, the server passes it to the Hub), else a new one.
    requestIdHeader: false,
    logController: new LogController({ requestIdLogLabel: 'request_id' }),
    genReqId: (req) => requestIdFrom(req.headers[REQUEST_ID_HEADER]),
    // A number of hops as the function Fastify's types take: the socket and the N-1 proxies behind the outermost are trusted.
    trustProxy: typeof options.trustProxy === 'number' ? trustHops(options.trustProxy) : (options.trustProxy ?? false),
    bodyLimit: 1024 * 1024,
    frameworkErrors: preRouting.frameworkErrors,
  });
  app.decorate('preRoutingErrors', { register: preRouting.register } satisfies PreRoutingErrors);
  // With tracing on (tracing.ts): a span per request, the caller's child when it sent a traceparent.
  const spans = new WeakMap<FastifyRequest, ReturnType<typeof startRequestSpan>>();
  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    const route = request.routeOptions.url ?? 'unmatched';
    spans.set(
      request,
      startRequestSpan(options.program ?? 'latchkey', {
        method: request.method,
        route,
        headers: request.headers,
        requestId: request.id,
      }),
    );
  });
  app.addHook('onError', async (request, _reply, error) => {
    spans.get(request)?.span.recordException(error);
  });
  app.addHook('onResponse', async (request, reply) => endRequestSpan(spans.get(request)?.span, reply.statusCode));
  // After the body is read (its stream events would lose the context), before any handler: calls
  // the handler makes to other programs carry this request's id (currentRequestId), and what it
  // records says where it came from (currentRequestOrigin: the client's address and User-Agent).
  app.addHook('preHandler', (request, _reply, done) => {
    const next = () => withRequestId(request.id, done, { ip: request.ip, userAgent: request.headers['user-agent'] });
    const traced = spans.get(request);
    return traced ? traced.run(next) : next();
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
  // Every route Fastify serves, as it registers them: what the OpenAPI tests compare the document with.
  const served: ServedRoute[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) served.push({ method: String(method), url: route.url });
  });
  app.decorate('servedRoutes', served);
  return app;
}

/** The one place failures become the spec's reply shape (spec §8). */
export function sendError(request: FastifyRequest, reply: FastifyReply, error: unknown): FastifyReply {
  if (error instanceof AppError) {
    const body: ErrorReply = { code: error.code, description: error.description };
    if (error.issues) body.issues = error.issues;
    if (error.messageKey) body.message_key = error.messageKey;
    if (error.messageValues) body.message_values = error.messageValues;
    if (error.requestId) body.request_id = error.requestId;
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

/** A POST's body, with the fields its declaration reads from the query string (spec §7: the group list's paging). */
function withQueryFields(request: FastifyRequest, endpoint: Endpoint): unknown {
  const body = request.body ?? {};
  if (!endpoint.queryFields?.length || typeof body !== 'object' || Array.isArray(body)) return body;
  const query = (request.query ?? {}) as Record<string, unknown>;
  const fromQuery = endpoint.queryFields.filter((k) => query[k] !== undefined).map((k) => [k, query[k]]);
  return { ...body, ...Object.fromEntries(fromQuery) };
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
      try {
        return await answer(request, reply);
      } catch (error) {
        if ((app as unknown as { checkReplies: boolean }).checkReplies) checkDeclared(endpoint, error, request);
        throw error;
      }
    },
  });

  async function answer(request: FastifyRequest, reply: FastifyReply) {
    // Bodies are JSON, except the one call the spec sends as a form (the OAuth refresh): a
    // cross-site form post then never reaches a handler, whatever it carries.
    if (endpoint.method !== 'GET' && !acceptsBodyType(request, endpoint))
      throw new AppError('invalid_input', 'Send the body as application/json.', 415);
    const ctx = await guard(request, endpoint);
    const raw = endpoint.method === 'GET' ? request.query : withQueryFields(request, endpoint);
    const parsed = endpoint.input.safeParse(raw);
    if (!parsed.success)
      throw new AppError('invalid_input', invalidInput(parsed.error).description, 400, invalidInput(parsed.error).issues);
    const result = await handler({ input: parsed.data as z.output<E['input']>, ctx, request, reply });
    // A handler that answered itself (the SAML ACS redirects the browser): nothing more to send.
    if (reply.sent) return reply;
    if ((app as unknown as { checkReplies: boolean }).checkReplies) {
      const checked = endpoint.output.safeParse(result);
      // A reply that breaks its own contract is the program's fault: a 500, never the caller's 400.
      if (!checked.success) throw new Error(`${endpoint.path} broke its reply contract: ${checked.error.message}`);
    }
    return result;
  }
}

/**
 * An error code a call does not declare is missing from its OpenAPI document and from what the
 * console expects: the tests fail on it (vitest), elsewhere outside production it is logged.
 * `LATCHKEY_UNDECLARED_ERRORS` names a file that collects them instead (scripts/declare-errors.mjs).
 */
function checkDeclared(endpoint: Endpoint, error: unknown, request: FastifyRequest): void {
  if (!(error instanceof AppError) || answers(endpoint, error.code)) return;
  const collect = process.env.LATCHKEY_UNDECLARED_ERRORS;
  if (collect) {
    appendFileSync(collect, `${endpoint.name}\t${error.code}\n`);
    return;
  }
  const problem = `${endpoint.name} answered ${error.code}, which its declaration does not list in errors`;
  if (process.env.VITEST) throw new Error(problem);
  request.log.warn(problem);
}

function trustHops(hops: number) {
  return (_address: string, hop: number) => hop < hops;
}
