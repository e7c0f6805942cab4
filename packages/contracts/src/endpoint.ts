import type { z } from 'zod';
import type { AccessRule } from './access.ts';
import type { RouteInfo } from './routes.ts';

/**
 * One call, declared once: where it lives, who may make it, what it takes and what it returns.
 * - `public`: no credentials.
 * - `session`: the console's access token; `access` is then checked against the signed-in admin.
 * - `hubAuth`: a hub access token (hub calls).
 * - `device`: a member device's credential (the Hub's ingestion API, called by the team's apps).
 */
export interface Endpoint<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> extends RouteInfo {
  access?: AccessRule;
  input: I;
  output: O;
  summary: string;
}

export function defineEndpoint<I extends z.ZodType, O extends z.ZodType>(e: Endpoint<I, O>): Endpoint<I, O> {
  return e;
}

export type EndpointInput<E> = E extends Endpoint<infer I, z.ZodType> ? z.input<I> : never;
export type EndpointOutput<E> = E extends Endpoint<z.ZodType, infer O> ? z.output<O> : never;
/** What a handler, and the service it calls, receives: the input after the schema's defaults and transforms. */
export type EndpointArgs<E> = E extends Endpoint<infer I, z.ZodType> ? z.output<I> : never;
