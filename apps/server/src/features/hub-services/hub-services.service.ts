import { AUDIT_POLICY_DEFAULTS, type TeamPolicy } from '@latchkey/contracts';
import { AppError, type Db } from '@latchkey/runtime';
import type { Caller } from '../../http/guard.ts';
import { recordEvent } from '../events/index.ts';
import { policiesRepository } from '../policies/index.ts';
import { hubServicesRepository } from './hub-services.repository.ts';

/**
 * The audit judges vault passwords by the rules the team sets for passwords: shorter than its
 * minimum length, or missing a character class it requires, counts as weak; older than its expiry
 * (when it has one) counts as old. Only entries that apply to the whole team count: the audit is
 * one yardstick for everyone, so an entry limited to some members does not change it.
 */
export function auditPolicyFrom(team: TeamPolicy) {
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

/** The licence server's part of the audit and recovery services. */
export function createHubServicesService(db: Db) {
  return {
    async auditPolicy(caller: Caller) {
      return { policy: auditPolicyFrom(await policiesRepository.teamPolicy(db, caller.team.id)) };
    },

    async setRecovery(caller: Caller, enabled: boolean) {
      const updated = await db.transaction(async (tx) => {
        const done = await hubServicesRepository.setRecovery(tx, caller.team.id, enabled);
        if (done)
          await recordEvent(tx, {
            teamId: caller.team.id,
            actor: caller.email,
            activity: enabled ? 'recovery.service_enabled' : 'recovery.service_disabled',
            component: 'recovery',
          });
        return done;
      });
      if (!updated)
        throw new AppError('aux_server_not_connected', 'Connect a Hub before switching its services.', 400).shows(
          'errors.connect_hub_first',
        );
      return { code: 'recovery_service_updated' as const, enable_recovery: enabled };
    },
  };
}
