import type { Scope, ScopeExpiry } from '@latchkey/contracts';

/** A time-bound scope held now, until its expiry. */
export interface HeldElevation {
  scope: Scope;
  expires_at: Date;
}

/**
 * The scopes an admin holds: the standing ones, and the time-bound ones with their expiry (a scope
 * also held standing never expires). What the guard, the Hub's session check and the grant carry.
 */
export function heldScopes(
  standing: readonly Scope[],
  elevations: readonly HeldElevation[],
): { scopes: Scope[]; expiry: ScopeExpiry } {
  const scopes = [...standing];
  const expiry: ScopeExpiry = {};
  for (const e of elevations) {
    if (standing.includes(e.scope)) continue;
    if (!scopes.includes(e.scope)) scopes.push(e.scope);
    // Two elevations of one scope cannot be open at once; the later expiry wins all the same.
    expiry[e.scope] = Math.max(expiry[e.scope] ?? 0, e.expires_at.getTime());
  }
  return { scopes, expiry };
}

/**
 * An admin's scopes split into standing and eligible: never both for one scope, and at least one
 * standing scope (an admin without one is no longer an admin of the team).
 */
export function splitScopes(standing: readonly Scope[], eligible: readonly Scope[]): { scopes: Scope[]; eligible: Scope[] } {
  const scopes = [...new Set(standing)];
  return { scopes, eligible: [...new Set(eligible)].filter((s) => !scopes.includes(s)) };
}
