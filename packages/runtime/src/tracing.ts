import { context, propagation, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';

/**
 * OpenTelemetry traces over OTLP/HTTP, off unless an endpoint is configured. Spans are made here by
 * hand at the three places a request passes (its HTTP handling, its SQL, its calls to the other
 * program) rather than by module patching, which needs loader hooks under ESM and tsx. The W3C
 * `traceparent` header carries the trace from the server to the Hub beside the request id.
 */
let tracerName: string | undefined;
let provider: TracerProvider | undefined;

/** Starts exporting this program's spans to `endpoint` (`…/v1/traces` is added); returns the flush-and-stop. */
export function startTracing(options: { serviceName: string; endpoint: string; version?: string }): () => Promise<void> {
  if (provider) throw new Error('tracing is already started in this process');
  const url = `${options.endpoint.replace(/\/$/, '')}/v1/traces`;
  provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.serviceName, 'service.version': options.version ?? '' }),
    spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url }), scheduledDelayMillis: 500 })],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  tracerName = options.serviceName;
  return async () => {
    await provider?.shutdown();
    trace.disable();
    context.disable();
    propagation.disable();
    provider = undefined;
    tracerName = undefined;
  };
}

/** The program's tracer; named after the program so two programs in one process (the tests) stay apart. */
export const tracingOn = (): boolean => tracerName !== undefined;
const tracer = (scope: string) => trace.getTracer(scope);

/** The span of an incoming request, child of the caller's `traceparent` when it sends one. */
export function startRequestSpan(
  scope: string,
  request: { method: string; route: string; headers: Record<string, unknown>; requestId: string },
): { span: Span; run<T>(fn: () => T): T } | undefined {
  if (!tracingOn()) return undefined;
  const parent = propagation.extract(context.active(), request.headers);
  const span = tracer(scope).startSpan(
    `${request.method} ${request.route}`,
    {
      kind: SpanKind.SERVER,
      attributes: {
        'http.request.method': request.method,
        'http.route': request.route,
        'latchkey.request_id': request.requestId,
      },
    },
    parent,
  );
  const active = trace.setSpan(parent, span);
  return { span, run: (fn) => context.with(active, fn) };
}

export function endRequestSpan(span: Span | undefined, statusCode: number, error?: unknown): void {
  if (!span) return;
  span.setAttribute('http.response.status_code', statusCode);
  if (error) span.recordException(error as Error);
  if (statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

function markFailed(span: Span, error: unknown): void {
  span.recordException(error as Error);
  span.setStatus({ code: SpanStatusCode.ERROR });
}

/** A client span around one SQL statement (its text only: values are parameters and never recorded). */
export async function tracedQuery<T>(sql: string, run: () => Promise<T>): Promise<T> {
  if (!tracingOn() || !trace.getSpan(context.active())) return run();
  return tracer('latchkey-db').startActiveSpan(
    sql.trim().split(/\s+/, 1)[0]?.toLowerCase() ?? 'query',
    { kind: SpanKind.CLIENT, attributes: { 'db.system.name': 'postgresql', 'db.query.text': sql.slice(0, 2_000) } },
    async (span) => {
      try {
        return await run();
      } catch (error) {
        markFailed(span, error);
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

/**
 * A client span around a call to another program, and the `traceparent` header that makes the
 * other program's span its child. The URL is recorded without its query (it may carry tokens).
 */
export async function tracedCall<T>(
  method: string,
  url: URL,
  headers: Record<string, string>,
  run: (headers: Record<string, string>) => Promise<T & { status: number }>,
): Promise<T & { status: number }> {
  if (!tracingOn() || !trace.getSpan(context.active())) return run(headers);
  return tracer('latchkey-http').startActiveSpan(
    `${method} ${url.host}`,
    { kind: SpanKind.CLIENT, attributes: { 'http.request.method': method, 'url.full': `${url.origin}${url.pathname}` } },
    async (span) => {
      const carrier: Record<string, string> = { ...headers };
      propagation.inject(context.active(), carrier);
      try {
        const answer = await run(carrier);
        span.setAttribute('http.response.status_code', answer.status);
        return answer;
      } catch (error) {
        markFailed(span, error);
        throw error;
      } finally {
        span.end();
      }
    },
  );
}
