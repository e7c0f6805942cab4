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
import { type Db, registerEndpoint } from '@latchkey/runtime';
import type { FastifyInstance } from 'fastify';
import { type Guard, requireCaller } from '../../http/guard.ts';
import { createGroupsService } from './groups.service.ts';

export const GROUPS_ENDPOINTS = [
  groupsEndpoint,
  groupEndpoint,
  groupCreateEndpoint,
  groupEditEndpoint,
  groupRemoveEndpoint,
  groupPriorityEndpoint,
  groupMembersAddEndpoint,
  groupMembersRemoveEndpoint,
];

/** Spec §7: `page` and `page_size` of the group list travel in the query string, the filters in the body. */
function withPagingQuery(request: { query: unknown; body: unknown }): void {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const body = (request.body ?? {}) as Record<string, unknown>;
  const paging = Object.fromEntries(['page', 'page_size'].filter((k) => query[k] !== undefined).map((k) => [k, query[k]]));
  request.body = { ...body, ...paging };
}

export async function groupsRoutes(app: FastifyInstance, guard: Guard, db: Db) {
  const groups = createGroupsService(db);
  await app.register(async (scope) => {
    scope.addHook('preHandler', async (request) => {
      if (request.routeOptions.url === groupsEndpoint.path) withPagingQuery(request);
    });
    registerEndpoint(scope, groupsEndpoint, guard, ({ ctx, input }) =>
      groups.list(requireCaller(ctx), input.filters.search_value, input.page, input.page_size),
    );
  });
  registerEndpoint(app, groupEndpoint, guard, ({ ctx, input }) => groups.get(requireCaller(ctx), input.id));
  registerEndpoint(app, groupCreateEndpoint, guard, ({ ctx, input }) =>
    groups.create(requireCaller(ctx), input.group, input.emails),
  );
  registerEndpoint(app, groupEditEndpoint, guard, ({ ctx, input }) => groups.rename(requireCaller(ctx), input.id, input.name));
  registerEndpoint(app, groupRemoveEndpoint, guard, ({ ctx, input }) => groups.remove(requireCaller(ctx), input.id));
  registerEndpoint(app, groupPriorityEndpoint, guard, ({ ctx, input }) =>
    groups.priority(requireCaller(ctx), input.id, input.priority_level, input.reset_priority_level),
  );
  registerEndpoint(app, groupMembersAddEndpoint, guard, ({ ctx, input }) =>
    groups.addMembers(requireCaller(ctx), input.id, input.emails),
  );
  registerEndpoint(app, groupMembersRemoveEndpoint, guard, ({ ctx, input }) =>
    groups.removeMembers(requireCaller(ctx), input.id, input.emails),
  );
}
