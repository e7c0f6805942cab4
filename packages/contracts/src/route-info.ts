/**
 * Where a call lives and how it is authenticated, without its schemas: what the console's route
 * table (routes.ts, generated) holds for each call so its first page loads no zod.
 */
export interface RouteInfo {
  method: 'GET' | 'POST';
  path: string;
  /** `device`: a member device's credential from the Hub's ingestion API (the team's apps). */
  auth: 'public' | 'session' | 'hubAuth' | 'device';
  /** Body encoding the client sends; the OAuth refresh call is a form. */
  encoding?: 'json' | 'form';
  /** Input fields the client sends in the query string of a POST (spec §7: paging of some lists). */
  queryFields?: readonly string[];
}
