import { GROUPS_PAGE_SIZE } from '@latchkey/contracts/client';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../lib/api.ts';
import { useTeamSlug } from '../../lib/team-slug.ts';
import { memberKeys } from '../members/index.ts';

/** Query keys of the groups screens; the team slug scopes the cache. */
const groupKeys = {
  all: (team: string) => ['groups', team] as const,
  list: (team: string, search: string) => [...groupKeys.all(team), 'list', search] as const,
  one: (team: string, id: string) => [...groupKeys.all(team), 'one', id] as const,
  devices: (team: string, email: string, groupId: string | undefined) =>
    [...groupKeys.all(team), 'devices', email, groupId ?? null] as const,
};

/** Spec §9: the whole list in one huge page; the table pages it. */
export const useGroupsQuery = (search: string) =>
  useQuery({
    queryKey: groupKeys.list(useTeamSlug(), search),
    queryFn: () => call('groups', { page: 1, page_size: GROUPS_PAGE_SIZE, filters: search ? { search_value: search } : {} }),
    placeholderData: keepPreviousData,
  });

export const useGroupQuery = (id: string) =>
  useQuery({ queryKey: groupKeys.one(useTeamSlug(), id), queryFn: () => call('group', { id }) });

export const useMemberDevicesQuery = (email: string, groupId: string | undefined) =>
  useQuery({
    queryKey: groupKeys.devices(useTeamSlug(), email, groupId),
    queryFn: () => call('memberDevices', groupId ? { email, group_id: groupId } : { email }),
  });

/** Members matching a search, for the member pickers. */
export const useMemberSearchQuery = (search: string) =>
  useQuery({
    queryKey: [...memberKeys.members(useTeamSlug()), 'picker', search],
    queryFn: async () =>
      (await call('members', { ...(search ? { search_value: search } : {}), page_size: 20 })).results.map((m) => m.email),
    placeholderData: keepPreviousData,
  });

type GroupAction =
  | { kind: 'create'; name: string; emails: string[] }
  | { kind: 'rename'; id: string; name: string }
  | { kind: 'remove'; ids: string[] }
  | { kind: 'priority'; id: string; level: number | null }
  | { kind: 'add'; id: string; emails: string[] }
  | { kind: 'take_out'; id: string; emails: string[] };

/** Every group change; afterwards the group lists and the changed group are stale. */
export function useGroupMutation() {
  const client = useQueryClient();
  const team = useTeamSlug();
  return useMutation({
    mutationFn: async (action: GroupAction) => {
      switch (action.kind) {
        case 'create':
          return call('groupCreate', { group: action.name, emails: action.emails });
        case 'rename':
          return call('groupEdit', { id: action.id, name: action.name });
        case 'remove':
          return call('groupRemove', { id: action.ids });
        case 'priority':
          return call(
            'groupPriority',
            action.level === null
              ? { id: action.id, reset_priority_level: true }
              : { id: action.id, priority_level: action.level },
          );
        case 'add':
          return call('groupMembersAdd', { id: action.id, emails: action.emails });
        case 'take_out':
          return call('groupMembersRemove', { id: action.id, emails: action.emails });
      }
    },
    onSuccess: () => client.invalidateQueries({ queryKey: groupKeys.all(team) }),
  });
}
