import { AppError, type Db } from '@latchkey/runtime';
import type { Caller } from '../../http/caller.ts';
import { recordEvent } from '../eventlogs/index.ts';
import { integrationRepository } from './integration.repository.ts';

/** The licence server's part of the recovery service: the switch on the team's first Hub. */
export function createRecoverySwitchService(db: Db) {
  return {
    async setRecovery(caller: Caller, enabled: boolean) {
      const updated = await db.transaction(async (tx) => {
        const done = await integrationRepository.setRecovery(tx, caller.team.id, enabled);
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
