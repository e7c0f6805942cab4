import { familyBenefitEndpoint, familyBenefitUpdateEndpoint } from '@latchkey/contracts';
import type { Db, Router } from '@latchkey/runtime';
import { type Guard, requireCaller } from '../../http/caller.ts';
import { createFamilyService } from './family.service.ts';

export function familyRoutes(router: Router, guard: Guard, db: Db) {
  const family = createFamilyService(db);
  router.handle(familyBenefitEndpoint, guard, ({ ctx }) => family.current(requireCaller(ctx)));
  router.handle(familyBenefitUpdateEndpoint, guard, ({ ctx, input }) => family.update(requireCaller(ctx), input));
}
