import { type AccessContext, accessDenial, RULES } from '@latchkey/contracts/client';
/** An approved request whose recovery link still works: deleting it needs force_delete. */
export const linkIsLive = (r: { state: string; link_expires_at: string | null }, now = Date.now()): boolean =>
  r.state === 'approved' && r.link_expires_at !== null && Date.parse(r.link_expires_at) > now;

/**
 * What the recovery screen offers while the service is off: the switch (a super admin with a Hub),
 * the way to connect a Hub first (a super admin without one, a family's owner among them), or the
 * person to ask (a recovery agent).
 */
export function recoveryOffMode(ctx: AccessContext): 'turn_on' | 'connect_hub' | 'ask' {
  const denial = accessDenial(RULES.recoverySwitch, ctx);
  if (denial === null) return 'turn_on';
  return denial === 'service' && !ctx.hubEnabled ? 'connect_hub' : 'ask';
}
