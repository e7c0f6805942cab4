import rateLimit from '@fastify/rate-limit';
import { databaseInputError } from '@latchkey/runtime';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { ListQuery, ScimService } from './scim.service.ts';
import type { ScimCaller, ScimConnectorsService } from './scim-connectors.service.ts';
import { RESOURCE_TYPES, resourceTypesResponse, SCHEMAS, schemasResponse, serviceProviderConfig } from './scim-discovery.ts';
import { ScimError } from './scim-patch.ts';
import { ERROR_SCHEMA, SCIM_CONTENT_TYPE } from './scim-schema.ts';

/** The request's path and query as an admin reads it in the log: percent-escapes decoded when they decode. */
function readablePath(url: string): string {
  try {
    return decodeURIComponent(url.replace(/\+/g, ' '));
  } catch {
    return url;
  }
}

/** Where the SCIM server lives on the licence server. */
export const SCIM_PREFIX = '/scim/v2';

/** RFC 6750 §3: a 401 says which scheme to use, and whether the token presented was refused. */
const challenge = (request: FastifyRequest) =>
  request.headers.authorization ? 'Bearer realm="Latchkey SCIM", error="invalid_token"' : 'Bearer realm="Latchkey SCIM"';

/** Whether an If-None-Match header names `current` (weak comparison, RFC 9110 §13.1.2). */
function noneMatch(request: FastifyRequest, current: string): boolean {
  const header = request.headers['if-none-match'];
  if (!header) return false;
  const strip = (tag: string) => tag.trim().replace(/^W\//, '');
  const tags = (Array.isArray(header) ? header.join(',') : header).split(',').map((t) => t.trim());
  return tags.includes('*') || tags.some((t) => strip(t) === strip(current));
}

/**
 * The SCIM 2.0 server (RFC 7644) under /scim/v2, beside the console's call registry rather than in
 * it: SCIM has its own content type (application/scim+json), its own error shape (`schemas`,
 * `status` as a string, `scimType`), PUT/PATCH/DELETE on resource paths, 201/204 replies and ETags,
 * none of which the registry's POST-JSON calls express. Authentication is the connector's bearer
 * token; every request is logged for that connector (method, path, status, duration, error).
 */
export async function scimRoutes(
  app: FastifyInstance,
  connectors: ScimConnectorsService,
  scim: ScimService,
  base: () => string,
  limits: { perSecond: number; redis?: Redis | null },
) {
  const callers = new WeakMap<FastifyRequest, ScimCaller>();
  const errors = new WeakMap<FastifyRequest, string>();
  const caller = (request: FastifyRequest): ScimCaller => {
    const c = callers.get(request);
    if (!c) throw new ScimError(401, 'A bearer token is required.');
    return c;
  };
  const scimError = (request: FastifyRequest, reply: FastifyReply, status: number, detail: string, scimType?: string) => {
    errors.set(request, scimType ? `${scimType}: ${detail}` : detail);
    if (status === 401) reply.header('www-authenticate', challenge(request));
    return reply
      .code(status)
      .type(SCIM_CONTENT_TYPE)
      .send({ schemas: [ERROR_SCHEMA], status: String(status), ...(scimType ? { scimType } : {}), detail });
  };
  const query = (request: FastifyRequest): ListQuery => {
    const raw = (request.query ?? {}) as Record<string, unknown>;
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(raw)) {
      const value = Array.isArray(v) ? v[0] : v;
      if (typeof value === 'string') out[k] = value;
    }
    return out;
  };
  const id = (request: FastifyRequest) => (request.params as { id: string }).id;
  const ifMatch = (request: FastifyRequest) => {
    const h = request.headers['if-match'];
    return Array.isArray(h) ? h.join(',') : h;
  };
  /** A resource, with its ETag; a GET whose If-None-Match names that ETag gets 304 (RFC 7644 §3.14). */
  const resource = (request: FastifyRequest, reply: FastifyReply, body: Record<string, unknown>, status = 200) => {
    const version = (body.meta as { version?: string } | undefined)?.version;
    if (version) reply.header('etag', version);
    if (version && request.method === 'GET' && noneMatch(request, version)) return reply.code(304).send();
    const location = (body.meta as { location?: string } | undefined)?.location;
    if (status === 201 && location) reply.header('location', location);
    return reply.code(status).type(SCIM_CONTENT_TYPE).send(body);
  };

  /** The connector whose bearer token the request carries; SCIM's 401 without one. */
  const authenticate = async (request: FastifyRequest): Promise<ScimCaller> => {
    const header = request.headers.authorization;
    const token = header?.match(/^Bearer\s+(\S{1,200})$/i)?.[1];
    if (!token) throw new ScimError(401, 'A bearer token is required.');
    const connector = await connectors.authenticate(token);
    if (!connector) throw new ScimError(401, 'The bearer token is not valid (revoked, rotated out or unknown).');
    return connector;
  };
  const logRequest = (request: FastifyRequest, reply: FastifyReply) => {
    const connector = callers.get(request);
    if (!connector) return;
    connectors.logRequest(connector.id, {
      method: request.method,
      path: readablePath(request.url).slice(0, 500),
      status: reply.statusCode,
      durationMs: Math.round(reply.elapsedTime),
      error: errors.get(request)?.slice(0, 500) ?? null,
    });
  };

  // A malformed percent-escape, or an id longer than Fastify's path parameters may be, is refused
  // before routing, past every hook of the scope below: answered here in SCIM's format too,
  // after the same token check, and logged for the connector.
  app.preRoutingErrors.register(SCIM_PREFIX, async (error: FastifyError, request, reply) => {
    try {
      callers.set(request, await authenticate(request));
    } catch (refused) {
      // Nothing awaits this handler: every failure is answered here.
      if (refused instanceof ScimError) return scimError(request, reply, refused.status, refused.detail);
      request.log.error({ err: refused }, 'scim request failed');
      return scimError(request, reply, 500, 'The request failed.');
    }
    if (error.code === 'FST_ERR_BAD_URL') scimError(request, reply, 400, 'The path holds a malformed percent-escape.');
    // Every id this server gives is a UUID: a longer one names nothing.
    else if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') scimError(request, reply, 404, 'No such resource.');
    else scimError(request, reply, 500, 'The request failed.');
    logRequest(request, reply);
    return reply;
  });

  app.addHook('onClose', async () => connectors.flushLog());
  await app.register(
    async (scope) => {
      const json = (_req: FastifyRequest, body: string | Buffer, done: (err: Error | null, value?: unknown) => void) => {
        try {
          const text = String(body);
          done(null, text.trim() === '' ? undefined : JSON.parse(text));
        } catch {
          done(new ScimError(400, 'The body is not valid JSON.', 'invalidSyntax'));
        }
      };
      scope.removeContentTypeParser('application/json');
      scope.addContentTypeParser(['application/scim+json', 'application/json'], { parseAs: 'string' }, json);

      scope.setErrorHandler((error: unknown, request, reply) => {
        if (error instanceof ScimError) return scimError(request, reply, error.status, error.detail, error.scimType);
        const e = error as { statusCode?: number; status?: number; code?: string; message?: string; description?: string };
        // Two writes racing for one userName or group name: the unique index refuses the second.
        if (e.code === '23505') return scimError(request, reply, 409, 'That userName or displayName is taken.', 'uniqueness');
        // Input the database refuses (a value it cannot hold): the client's to fix, not a failure.
        const refused = databaseInputError(error);
        if (refused) return scimError(request, reply, refused.status, refused.description, 'invalidValue');
        const status = e.statusCode ?? e.status;
        if (typeof status === 'number' && status >= 400 && status < 500) {
          return scimError(
            request,
            reply,
            status,
            e.description ?? e.message ?? 'Bad request.',
            status === 400 ? 'invalidValue' : undefined,
          );
        }
        request.log.error({ err: error }, 'scim request failed');
        return scimError(request, reply, 500, 'The request failed.');
      });
      scope.setNotFoundHandler((request, reply) => scimError(request, reply, 404, 'No such SCIM endpoint.'));

      scope.addHook('onRequest', async (request) => {
        callers.set(request, await authenticate(request));
      });
      scope.addHook('onResponse', async (request, reply) => logRequest(request, reply));

      // Each connector's own budget: `perSecond` requests a second (a bucket of that many, refilled
      // every second), counted after the token check, so a runaway IdP slows only itself. Shared by
      // every instance through Redis when there is one; 429 in SCIM's format with Retry-After beyond.
      await scope.register(rateLimit, {
        global: true,
        max: limits.perSecond,
        timeWindow: 1000,
        ...(limits.redis ? { redis: limits.redis, nameSpace: 'latchkey:server:scim-rate:' } : {}),
        skipOnError: true,
        keyGenerator: (request) => `connector:${caller(request).id}`,
        errorResponseBuilder: (_request, context) =>
          new ScimError(
            429,
            `Too many requests for this connector: at most ${context.max} a second. Retry after ${context.after}.`,
          ),
      });

      scope.get('/ServiceProviderConfig', async (request, reply) => resource(request, reply, serviceProviderConfig(base())));
      scope.get('/Schemas', async (_request, reply) => reply.type(SCIM_CONTENT_TYPE).send(schemasResponse(base())));
      scope.get('/Schemas/:id', async (request, reply) => {
        const schema = SCHEMAS.find((s) => s.id === id(request));
        if (!schema) throw new ScimError(404, 'No such schema.');
        return resource(request, reply, { ...schema, meta: { ...schema.meta, location: `${base()}/Schemas/${schema.id}` } });
      });
      scope.get('/ResourceTypes', async (_request, reply) => reply.type(SCIM_CONTENT_TYPE).send(resourceTypesResponse(base())));
      scope.get('/ResourceTypes/:id', async (request, reply) => {
        const type = RESOURCE_TYPES(base()).find((t) => t.id === id(request));
        if (!type) throw new ScimError(404, 'No such resource type.');
        return resource(request, reply, type);
      });

      scope.get('/Users', async (request, reply) =>
        reply.type(SCIM_CONTENT_TYPE).send(await scim.listUsers(caller(request), query(request))),
      );
      scope.post('/Users', async (request, reply) =>
        resource(request, reply, await scim.createUser(caller(request), request.body), 201),
      );
      scope.get('/Users/:id', async (request, reply) =>
        resource(request, reply, await scim.getUser(caller(request), id(request), query(request))),
      );
      scope.put('/Users/:id', async (request, reply) =>
        resource(request, reply, await scim.replaceUser(caller(request), id(request), request.body, ifMatch(request))),
      );
      scope.patch('/Users/:id', async (request, reply) =>
        resource(request, reply, await scim.patchUser(caller(request), id(request), request.body, ifMatch(request))),
      );
      scope.delete('/Users/:id', async (request, reply) => {
        await scim.deleteUser(caller(request), id(request), ifMatch(request));
        return reply.code(204).send();
      });

      scope.get('/Groups', async (request, reply) =>
        reply.type(SCIM_CONTENT_TYPE).send(await scim.listGroups(caller(request), query(request))),
      );
      scope.post('/Groups', async (request, reply) =>
        resource(request, reply, await scim.createGroup(caller(request), request.body), 201),
      );
      scope.get('/Groups/:id', async (request, reply) =>
        resource(request, reply, await scim.getGroup(caller(request), id(request), query(request))),
      );
      scope.put('/Groups/:id', async (request, reply) =>
        resource(request, reply, await scim.replaceGroup(caller(request), id(request), request.body, ifMatch(request))),
      );
      // 204: a PATCH of thousands of members need not send them all back (Entra and Okta accept it).
      scope.patch('/Groups/:id', async (request, reply) => {
        await scim.patchGroup(caller(request), id(request), request.body, ifMatch(request));
        return reply.code(204).send();
      });
      scope.delete('/Groups/:id', async (request, reply) => {
        await scim.deleteGroup(caller(request), id(request), ifMatch(request));
        return reply.code(204).send();
      });
    },
    { prefix: SCIM_PREFIX },
  );
}
