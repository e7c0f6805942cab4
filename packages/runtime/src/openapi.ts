import { type Endpoint, ERROR_STATUS } from '@latchkey/contracts';
import { z } from 'zod';

/** An OpenAPI 3.1 document generated from the contracts a program serves. */
export function openApiDocument(title: string, version: string, endpoints: readonly Endpoint[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const e of endpoints) {
    const security = e.auth === 'public' ? [] : [{ bearer: [] }];
    const contentType = e.encoding === 'form' ? 'application/x-www-form-urlencoded' : 'application/json';
    const operation: Record<string, unknown> = {
      summary: e.summary,
      security,
      responses: {
        200: { description: 'OK', content: { 'application/json': { schema: toSchema(e.output, 'output') } } },
        ...declaredErrors(e),
        default: { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
      },
    };
    if (e.method === 'POST') {
      operation.requestBody = { content: { [contentType]: { schema: toSchema(e.input, 'input') } } };
    }
    paths[e.path] = { ...paths[e.path], [e.method.toLowerCase()]: operation };
  }
  return {
    openapi: '3.1.0',
    info: { title, version },
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: {
        Error: {
          type: 'object',
          required: ['code', 'description'],
          properties: { code: { type: 'string' }, description: { type: 'string' } },
        },
      },
    },
  };
}

/** The error codes a call declares, by HTTP status: `{ 404: { description: 'not_found', … } }`. */
function declaredErrors(e: Endpoint): Record<string, unknown> {
  const byStatus = new Map<number, string[]>();
  for (const code of e.errors ?? []) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, codes]) => [
      status,
      { description: codes.join(', '), content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
    ]),
  );
}

function toSchema(schema: z.ZodType, io: 'input' | 'output') {
  return z.toJSONSchema(schema, { io, unrepresentable: 'any' });
}

/** Each operation of an OpenAPI document, as `METHOD path`. */
export function documentedOperations(doc: { paths: Record<string, object> }): string[] {
  return Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
}
