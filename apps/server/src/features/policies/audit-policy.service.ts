import { AUDIT_POLICY_DEFAULTS, type TeamPolicy } from '@latchkey/contracts';
import type { Db } from '@latchkey/runtime';
import type { Caller } from '../../http/caller.ts';
import { policiesRepository } from './policies.repository.ts';

/**
 * The audit judges vault passwords by the rules the team sets for passwords: shorter than its
 * minimum length, or missing a character class it requires, counts as weak; older than its expiry
 * (when it has one) counts as old. Only entries that apply to the whole team count: the audit is
 * one yardstick for everyone, so an entry limited to some members does not change it.
 */
function auditPolicyFrom(team: TeamPolicy) {
  const teamWide = (key: string) => {
    const entry = team[key];
    return entry && !entry.include?.length && !entry.exclude?.length ? entry.policy : undefined;
  };
  const num = (key: string, fallback: number) => {
    const v = teamWide(key);
    return typeof v === 'number' ? v : fallback;
  };
  const flag = (key: string, fallback: boolean) => {
    const v = teamWide(key);
    return typeof v === 'boolean' ? v : fallback;
  };
  const expiry = num('mp.expiry_days', 0);
  const d = AUDIT_POLICY_DEFAULTS;
  return {
    old_password_days: expiry > 0 ? expiry : d.old_password_days,
    at_risk_below_score: d.at_risk_below_score,
    weak_below_length: num('mp.min_length', d.weak_below_length),
    require_uppercase: flag('mp.require_uppercase', d.require_uppercase),
    require_lowercase: flag('mp.require_lowercase', d.require_lowercase),
    require_digits: flag('mp.require_digits', d.require_digits),
    require_symbols: flag('mp.require_symbols', d.require_symbols),
    flag_breached: flag('mp.block_breached', d.flag_breached),
  };
}

/** The licence server's part of the audit service: the yardstick the Hub's audit judges passwords by. */
export function createAuditPolicyService(db: Db) {
  return {
    async auditPolicy(caller: Caller) {
      return { policy: auditPolicyFrom(await policiesRepository.teamPolicy(db, caller.team.id)) };
    },
  };
}
