import {
  groupCreateEndpoint,
  groupEditEndpoint,
  groupEndpoint,
  groupMembersAddEndpoint,
  groupMembersRemoveEndpoint,
  groupPriorityEndpoint,
  groupRemoveEndpoint,
  groupsEndpoint,
} from '@latchkey/contracts';
import type { Db, Router } from '@latchkey/runtime';
import { type Guard, requireCaller } from '../../http/caller.ts';
import { createGroupsService, type GroupMembersChanged } from './groups.service.ts';

export function groupsRoutes(router: Router, guard: Guard, db: Db, membersChanged: GroupMembersChanged) {
  const groups = createGroupsService(db, membersChanged);
  // Spec §7: `page` and `page_size` travel in the query string (the declaration's queryFields).
  router.handle(groupsEndpoint, guard, ({ ctx, input }) =>
    groups.list(requireCaller(ctx), input.filters.search_value, input.page, input.page_size),
  );
  router.handle(groupEndpoint, guard, ({ ctx, input }) => groups.get(requireCaller(ctx), input.id));
  router.handle(groupCreateEndpoint, guard, ({ ctx, input }) => groups.create(requireCaller(ctx), input.group, input.emails));
  router.handle(groupEditEndpoint, guard, ({ ctx, input }) => groups.rename(requireCaller(ctx), input.id, input.name));
  router.handle(groupRemoveEndpoint, guard, ({ ctx, input }) => groups.remove(requireCaller(ctx), input.id));
  router.handle(groupPriorityEndpoint, guard, ({ ctx, input }) =>
    groups.priority(requireCaller(ctx), input.id, input.priority_level, input.reset_priority_level),
  );
  router.handle(groupMembersAddEndpoint, guard, ({ ctx, input }) =>
    groups.addMembers(requireCaller(ctx), input.id, input.emails),
  );
  router.handle(groupMembersRemoveEndpoint, guard, ({ ctx, input }) =>
    groups.removeMembers(requireCaller(ctx), input.id, input.emails),
  );
}
