import { type OutboundPolicy, outboundPolicy } from '@latchkey/runtime';

/**
 * The Hub's policy for addresses admins give it (SIEM destinations), set once by buildHub from its
 * configuration: public addresses only in production unless OUTBOUND_ALLOW names them.
 */
let policy: OutboundPolicy = outboundPolicy({ production: false });

export function useHubOutboundPolicy(next: OutboundPolicy): void {
  policy = next;
}

export const hubOutboundPolicy = (): OutboundPolicy => policy;
