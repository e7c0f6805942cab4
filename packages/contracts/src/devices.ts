import { z } from 'zod';
import { RULES } from './access.ts';
import { Email } from './auth.ts';
import { MEMBER_SOURCES } from './directory-constants.ts';
import { defineEndpoint } from './endpoint.ts';
import { DEVICE_TYPES } from './groups-constants.ts';
import { MEMBER_STATUSES } from './members-constants.ts';

/** A device a member uses the apps on (spec §3 Device info), as the apps last reported it. */
export const MemberDevice = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(DEVICE_TYPES),
  os: z.string(),
  os_version: z.string(),
  browser: z.string().nullable(),
  app_version: z.string(),
  last_seen_at: z.string(),
  /** When the device last authenticated with the team's Hub; null when it never has. */
  hub_authenticated_at: z.string().nullable(),
});
export type MemberDevice = z.infer<typeof MemberDevice>;

export const memberDevicesEndpoint = defineEndpoint({
  name: 'memberDevices',
  program: 'server',
  method: 'POST',
  path: '/api/v1/team/member/devices/',
  auth: 'session',
  access: RULES.people,
  errors: ['member_not_found'],
  summary:
    "A current member's devices, most recently seen first; with `group_id`, only when the member is in that group (the group route).",
  input: z.object({ email: Email, group_id: z.string().uuid('No such group.').optional() }),
  output: z.object({
    member: z.object({ email: z.string(), name: z.string(), status: z.enum(MEMBER_STATUSES), source: z.enum(MEMBER_SOURCES) }),
    group: z.object({ id: z.string(), name: z.string() }).nullable(),
    devices: z.array(MemberDevice),
  }),
});
