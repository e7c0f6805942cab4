import cors from '@fastify/cors';
import { addSecurityHeaders } from '@latchkey/runtime';
import type { FastifyInstance } from 'fastify';

/**
 * The console calls the Hub from the browser, so only the configured console origins get CORS
 * headers; any other page's script cannot read a reply. Bearer tokens, never cookies: no credentials.
 */
export async function registerSecurity(app: FastifyInstance, allowedOrigins: readonly string[]): Promise<void> {
  await app.register(cors, {
    origin: [...allowedOrigins],
    methods: ['GET', 'POST'],
    // The console's request id is sent, and read back for its error reports.
    allowedHeaders: ['Authorization', 'Content-Type', 'X-Request-Id'],
    exposedHeaders: ['X-Request-Id'],
    credentials: false,
    maxAge: 600,
  });
  // A JSON API: nothing may be rendered, framed or loaded from its replies.
  addSecurityHeaders(app, {
    contentSecurityPolicy: { directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    strictTransportSecurity: { maxAge: 31536000, includeSubDomains: true },
  });
}
