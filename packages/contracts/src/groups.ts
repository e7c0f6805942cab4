import { z } from 'zod';
import { RULES } from './access.ts';
import { Email } from './auth.ts';
import { NO_PRIORITY } from './constants.ts';
import { defineEndpoint } from './endpoint.ts';
import { GROUPS_PAGE_SIZE, MAX_GROUP_NAME, MAX_PRIORITY_LEVEL } from './groups-constants.ts';
import { MAX_BULK_EMAILS, MEMBER_STATUSES } from './members-constants.ts';

export * from './groups-constants.ts';

const GroupId = z.string().uuid('No such group.');
export const GroupName = z
  .string()
  .trim()
  .min(1, 'this field is required')
  .max(MAX_GROUP_NAME, `The name can be at most ${MAX_GROUP_NAME} characters.`);
const MemberEmails = z.array(Email).max(MAX_BULK_EMAILS, `At most ${MAX_BULK_EMAILS} emails at a time.`);

/** Spec §3 Group; `emails` holds every member for one group, the first few in the list. */
export const Group = z.object({
  id: z.string(),
  name: z.string(),
  policy_override: z.boolean(),
  /** 999999 (NO_PRIORITY) means no priority. */
  priority_level: z.number().int(),
  emails: z.array(z.string()),
  member_count: z.number().int(),
  /** Provisioned by a SCIM connector: read-only in the console. */
  scim_managed: z.boolean(),
  /** Created and filled by directory sync: read-only in the console. */
  directory_managed: z.boolean(),
});
export type Group = z.infer<typeof Group>;

export const GroupMember = z.object({ email: z.string(), name: z.string(), status: z.enum(MEMBER_STATUSES) });
export type GroupMember = z.infer<typeof GroupMember>;

export const groupCreateEndpoint = defineEndpoint({
  name: 'groupCreate',
  program: 'server',
  method: 'POST',
  path: '/api/v1/team/group/create/',
  auth: 'session',
  access: RULES.people,
  errors: ['group_already_exists', 'member_not_found'],
  summary: 'Create a group with a name and its first members (current members of the team, by email).',
  input: z.object({ group: GroupName, emails: MemberEmails.default([]) }),
  output: Group,
});

export const groupEditEndpoint = defineEndpoint({
  name: 'groupEdit',
  program: 'server',
  method: 'POST',
  path: '/api/v1/team/group/edit/',
  auth: 'session',
  access: RULES.people,
  errors: ['group_not_found', 'group_already_exists'],
  summary: 'Rename a group.',
  input: z.object({ id: GroupId, name: GroupName }),
  output: Group,
});

export const groupRemoveEndpoint = defineEndpoint({
  name: 'groupRemove',
  program: 'server',
  method: 'POST',
  path: '/api/v1/team/group/remove/',
  auth: 'session',
  access: RULES.people,
  errors: ['group_not_found'],
  summary: 'Remove groups (all or none: an unknown id removes nothing).',
  input: z.object({ id: z.array(GroupId).min(1, 'this field is required').max(GROUPS_PAGE_SIZE) }),
  output: z.object({ code: z.literal('updated'), removed: z.number().int() }),
});

export const groupEndpoint = defineEndpoint({
  name: 'group',
  program: 'server',
  method: 'POST',
  path: '/api/v1/team/group/',
  auth: 'session',
  access: RULES.people,
  errors: ['group_not_found'],
  summary: 'One group with all its members.',
  input: z.object({ id: GroupId }),
  output: Group.extend({ members: z.array(GroupMember) }),
});

export const groupsEndpoint = defineEndpoint({
  name: 'groups',
  program: 'server',
  method: 'POST',
  path: '/api/v1/team/groups/',
  auth: 'session',
  access: RULES.people,
  queryFields: ['page', 'page_size'],
  summary:
    "The team's groups by name, a page at a time (`page`, `page_size` in the query string; the console asks for one huge page), with the first member emails of each.",
  input: z.object({
    page: z.coerce.number().int().min(1).default(1),
    page_size: z.coerce.number().int().min(1).max(GROUPS_PAGE_SIZE).default(GROUPS_PAGE_SIZE),
    filters: z.object({ search_value: z.string().trim().max(100).optional() }).default({}),
  }),
  output: z.object({ results: z.array(Group), pages: z.number().int(), count: z.number().int() }),
});

export const groupPriorityEndpoint = defineEndpoint({
  name: 'groupPriority',
  program: 'server',
  method: 'POST',
  path: '/api/v1/team/group/update/priority/',
  auth: 'session',
  access: RULES.people,
  errors: ['group_not_found'],
  summary:
    "Set a group's priority (1 is first; a level already taken moves that group and those after it down one), or reset it to none (999999).",
  input: z
    .object({
      id: GroupId,
      priority_level: z
        .number()
        .int()
        .min(1)
        .refine((n) => n <= MAX_PRIORITY_LEVEL || n === NO_PRIORITY, `At most ${MAX_PRIORITY_LEVEL}, or ${NO_PRIORITY} for none.`)
        .optional(),
      reset_priority_level: z.boolean().default(false),
    })
    .refine((i) => i.reset_priority_level || i.priority_level !== undefined, {
      message: 'this field is required',
      path: ['priority_level'],
    }),
  output: Group,
});

const GroupMembersChange = z.object({ id: GroupId, emails: MemberEmails.min(1, 'this field is required') });

export const groupMembersAddEndpoint = defineEndpoint({
  name: 'groupMembersAdd',
  program: 'server',
  method: 'POST',
  path: '/api/v1/team/group/members/add/',
  auth: 'session',
  access: RULES.people,
  errors: ['group_not_found', 'member_not_found'],
  summary: 'Add current members of the team to a group (those already in it are left as they are).',
  input: GroupMembersChange,
  output: z.object({ code: z.literal('updated'), added: z.number().int() }),
});

export const groupMembersRemoveEndpoint = defineEndpoint({
  name: 'groupMembersRemove',
  program: 'server',
  method: 'POST',
  path: '/api/v1/team/group/members/remove/',
  auth: 'session',
  access: RULES.people,
  errors: ['group_not_found'],
  summary: 'Take members out of a group (they stay in the team).',
  input: GroupMembersChange,
  output: z.object({ code: z.literal('updated'), removed: z.number().int() }),
});
