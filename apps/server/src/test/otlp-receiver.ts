import { createServer } from 'node:http';

/** One span as OTLP/JSON carries it (hex ids, attributes as key and typed value). */
export interface ReceivedSpan {
  scope: string;
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
}

export const SPAN_KIND = { server: 2, client: 3 } as const;

type Value = { stringValue?: string; intValue?: string | number; boolValue?: boolean };
const plainValue = (v: Value) => v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : v.boolValue);
const attributesOf = (list: { key: string; value: Value }[] = []) =>
  Object.fromEntries(list.map((a) => [a.key, plainValue(a.value)]));

/**
 * A local OpenTelemetry collector's OTLP/HTTP traces endpoint, as the OTLP specification
 * ("OTLP/HTTP", JSON encoding) describes it: POST /v1/traces with `application/json`, answered 200
 * with an empty ExportTraceServiceResponse; another path 404, another method 405, another type 415.
 */
export async function startOtlpReceiver(): Promise<{ url: string; spans: ReceivedSpan[]; close(): Promise<void> }> {
  const spans: ReceivedSpan[] = [];
  const server = createServer((request, response) => {
    if (request.url !== '/v1/traces') return response.writeHead(404).end();
    if (request.method !== 'POST') return response.writeHead(405).end();
    if (!request.headers['content-type']?.startsWith('application/json')) return response.writeHead(415).end();
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      for (const rs of body.resourceSpans ?? []) {
        const service = String(attributesOf(rs.resource?.attributes)['service.name'] ?? '');
        for (const ss of rs.scopeSpans ?? []) {
          for (const s of ss.spans ?? []) {
            spans.push({
              scope: ss.scope?.name ?? '',
              service,
              traceId: s.traceId,
              spanId: s.spanId,
              parentSpanId: s.parentSpanId ?? '',
              name: s.name,
              kind: s.kind,
              attributes: attributesOf(s.attributes),
            });
          }
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, spans, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
