import type { z } from 'zod';
import type { AccessRule } from './access.ts';
import type { ErrorCode } from './errors.ts';
import type { RouteInfo } from './route-info.ts';

/** The two programs that answer calls: the licence server and the customer-hosted Hub. */
export type Program = 'server' | 'hub';

/**
 * One call, declared once: its name, which program answers it, where it lives, who may make it,
 * what it takes, what it returns and which errors it may answer. Everything else (each program's
 * router, its OpenAPI document, the console's `call()` map and route table) is derived from this.
 * - `public`: no credentials.
 * - `session`: the console's access token; `access` is then checked against the signed-in admin.
 * - `hubAuth`: a hub access token (hub calls).
 * - `device`: a member device's credential (the Hub's ingestion API, called by the team's apps).
 */
export interface Endpoint<
  I extends z.ZodType = z.ZodType,
  O extends z.ZodType = z.ZodType,
  N extends string = string,
  P extends Program = Program,
  A extends RouteInfo['auth'] = RouteInfo['auth'],
> extends RouteInfo {
  /** The call's name: the key of `call(name, input)` in the console and of the route table. */
  name: N;
  program: P;
  auth: A;
  access?: AccessRule;
  input: I;
  output: O;
  /** Error codes this call answers besides the shared ones (documented in the OpenAPI document). */
  errors?: readonly ErrorCode[];
  /** Input fields also read from the query string of a POST (they win over the body's). */
  queryFields?: readonly string[];
  summary: string;
}

export function defineEndpoint<
  I extends z.ZodType,
  O extends z.ZodType,
  N extends string,
  P extends Program,
  A extends RouteInfo['auth'],
>(e: Endpoint<I, O, N, P, A>): Endpoint<I, O, N, P, A> {
  return e;
}

export type EndpointInput<E> = E extends Endpoint<infer I, z.ZodType> ? z.input<I> : never;
export type EndpointOutput<E> = E extends Endpoint<z.ZodType, infer O> ? z.output<O> : never;
/** What a handler, and the service it calls, receives: the input after the schema's defaults and transforms. */
export type EndpointArgs<E> = E extends Endpoint<infer I, z.ZodType> ? z.output<I> : never;

/**
 * Codes any call of its kind may answer without declaring them: bad input and overload for all;
 * for an authenticated call, a missing, expired or insufficient credential (its guard's answers).
 */
const SHARED_ERRORS: Record<RouteInfo['auth'], readonly string[]> = {
  public: ['invalid_input', 'too_many_requests_msg', 'internal_error'],
  session: ['invalid_input', 'too_many_requests_msg', 'internal_error', 'unauthorized', 'token_expired', 'forbidden'],
  hubAuth: ['invalid_input', 'too_many_requests_msg', 'internal_error', 'unauthorized', 'token_expired', 'forbidden'],
  device: ['invalid_input', 'too_many_requests_msg', 'internal_error', 'unauthorized', 'forbidden'],
};

/** Whether a call may answer `code`: shared by its kind, or declared in its `errors`. */
export function answers(endpoint: Endpoint, code: string): boolean {
  return (
    SHARED_ERRORS[endpoint.auth].includes(code) || (endpoint.errors as readonly string[] | undefined)?.includes(code) === true
  );
}
