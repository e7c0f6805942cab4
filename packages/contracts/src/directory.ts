import { z } from 'zod';
import { RULES } from './access.ts';
import {
  DIRECTORY_BATCH_MAX,
  DIRECTORY_KINDS,
  DIRECTORY_RUN_OUTCOMES,
  DIRECTORY_RUN_TRIGGERS,
  DIRECTORY_SECURITY,
  MEMBER_SOURCES,
} from './directory-constants.ts';
import { defineEndpoint } from './endpoint.ts';
import { MEMBER_STATUSES } from './members-constants.ts';

/**
 * Directory sync: the Hub reads the team's LDAP or Active Directory and keeps members and groups in
 * step. This module holds the connection form, the attribute mapping and its two presets.
 */

/** Where each field of a member or group is read from. Empty: not mapped. */
export const DirectoryMapping = z.object({
  user_filter: z.string().trim().min(1).max(1000),
  group_filter: z.string().trim().min(1).max(1000),
  /** The stable id a member is matched by across renames and moves (`objectGUID`, `entryUUID`). */
  user_id: z.string().trim().min(1).max(100),
  user_email: z.string().trim().min(1).max(100),
  /** Read when `user_email` is absent (Active Directory: `userPrincipalName`). */
  user_email_fallback: z.string().trim().max(100).default(''),
  user_name: z.string().trim().min(1).max(100),
  user_login: z.string().trim().max(100).default(''),
  /** `userAccountControl`: the ACCOUNTDISABLE bit (2) means disabled. Empty: no one is disabled by the directory. */
  user_disabled: z.string().trim().max(100).default(''),
  group_id: z.string().trim().min(1).max(100),
  group_name: z.string().trim().min(1).max(100),
  /** Member attributes holding DNs (`member`, `uniqueMember`). */
  group_member_dns: z.array(z.string().trim().min(1).max(100)).max(4),
  /** Member attributes holding logins (posixGroup's `memberUid`), matched to `user_login`. */
  group_member_logins: z.array(z.string().trim().min(1).max(100)).max(4).default([]),
});
export type DirectoryMapping = z.infer<typeof DirectoryMapping>;

const LdapUrl = z
  .string()
  .trim()
  .max(500)
  .refine(
    (v) => URL.canParse(v) && ['ldap:', 'ldaps:'].includes(new URL(v).protocol) && new URL(v).pathname.replace('/', '') === '',
    'invalid url',
  );

/** The connection form (Settings → Directory sync). The bind password left empty when editing keeps the stored one. */
export const DirectoryConnectionForm = z
  .object({
    kind: z.enum(DIRECTORY_KINDS),
    url: LdapUrl,
    security: z.enum(DIRECTORY_SECURITY),
    /** PEM of the CA to trust; empty: the Hub's usual trust store. */
    ca_pem: z.string().trim().max(20_000).default(''),
    bind_dn: z.string().trim().min(1).max(500),
    bind_password: z.string().max(500).default(''),
    base_dns: z.array(z.string().trim().min(1).max(500)).min(1).max(5),
    mapping: DirectoryMapping,
  })
  .superRefine((v, ctx) => {
    const protocol = URL.canParse(v.url) ? new URL(v.url).protocol : '';
    if (v.security === 'ldaps' && protocol !== 'ldaps:')
      ctx.addIssue({ code: 'custom', path: ['url'], message: 'directory.form.ldaps_url' });
    if (v.security !== 'ldaps' && protocol === 'ldaps:')
      ctx.addIssue({ code: 'custom', path: ['security'], message: 'directory.form.ldaps_url' });
  });
export type DirectoryConnectionForm = z.infer<typeof DirectoryConnectionForm>;

/** Why a directory could not be read, in words the console shows (each a message key `directory.error.<code>`). */
export const DIRECTORY_ERRORS = [
  'bind_refused',
  'certificate_not_trusted',
  'base_dn_not_found',
  'unreachable',
  'address_refused',
  'timeout',
  'filter_invalid',
  'tls_required',
  'failed',
] as const;
export type DirectoryError = (typeof DIRECTORY_ERRORS)[number];

const DirectoryId = z.string().trim().min(1).max(200);
const Uuid = z.string().uuid();
const Name = z.string().trim().max(200);

/**
 * One change a sync applies. Each is idempotent (a batch sent again after a lost answer changes
 * nothing more): an invite of a directory id already a member, a rename to the name it has, a
 * group's members set to what they are, all do nothing.
 */
export const DirectoryChange = z.discriminatedUnion('op', [
  z.object({
    op: z.literal('member_invite'),
    directory_id: DirectoryId,
    email: z.string().trim().toLowerCase().max(254),
    name: Name,
  }),
  /** Takes a console member over (same e-mail), or updates one the directory already owns. */
  z.object({
    op: z.literal('member_update'),
    member_id: Uuid,
    directory_id: DirectoryId,
    email: z.string().trim().toLowerCase().max(254),
    name: Name,
  }),
  z.object({ op: z.literal('member_suspend'), member_id: Uuid }),
  z.object({ op: z.literal('member_restore'), member_id: Uuid }),
  z.object({ op: z.literal('member_remove'), member_id: Uuid }),
  z.object({ op: z.literal('group_create'), directory_id: DirectoryId, name: Name.min(1) }),
  z.object({ op: z.literal('group_rename'), group_id: Uuid, directory_id: DirectoryId, name: Name.min(1) }),
  /** The group's members become exactly these directory-owned members (by directory id); console-added members stay. */
  z.object({
    op: z.literal('group_fill'),
    group_directory_id: DirectoryId,
    member_directory_ids: z.array(DirectoryId).max(100_000),
  }),
]);
export type DirectoryChange = z.infer<typeof DirectoryChange>;

export const DirectoryStateMember = z.object({
  id: Uuid,
  email: z.string(),
  name: z.string(),
  status: z.enum(MEMBER_STATUSES),
  source: z.enum(MEMBER_SOURCES),
  directory_id: z.string().nullable(),
  /** Administrators are never changed by a sync. */
  admin: z.boolean(),
});
export type DirectoryStateMember = z.infer<typeof DirectoryStateMember>;

export const hubDirectoryStateEndpoint = defineEndpoint({
  name: 'hubDirectoryState',
  program: 'server',
  method: 'POST',
  path: '/api/v1/hub/directory/state/',
  auth: 'public',
  errors: ['unauthorized'],
  summary:
    "Hub to server (signed with the Hub's key): the team's current members and groups and its free licences, which directory sync compares the directory with.",
  input: z.object({ team_slug: z.string().min(1).max(100) }),
  output: z.object({
    /** Licences still free (null: unlimited). */
    licences_free: z.number().int().nullable(),
    members: z.array(DirectoryStateMember),
    /** The team's administrators' e-mails, members or not: a sync never invites or changes them. */
    admins: z.array(z.string()),
    groups: z.array(z.object({ id: Uuid, name: z.string(), directory_id: z.string().nullable(), member_ids: z.array(Uuid) })),
  }),
});

export const hubDirectoryApplyEndpoint = defineEndpoint({
  name: 'hubDirectoryApply',
  program: 'server',
  method: 'POST',
  path: '/api/v1/hub/directory/apply/',
  auth: 'public',
  errors: ['unauthorized', 'invalid_input', 'licence_limit_exceeded', 'directory_change_refused'],
  summary:
    "Hub to server (signed with the Hub's key): one batch of a directory sync's changes, applied in one transaction through the members' and groups' own rules, or none of it.",
  input: z.object({
    team_slug: z.string().min(1).max(100),
    run_id: z.string().uuid(),
    changes: z.array(DirectoryChange).min(1).max(DIRECTORY_BATCH_MAX),
  }),
  output: z.object({ applied: z.number().int(), unchanged: z.number().int() }),
});

// The console's calls to the Hub (Settings → Directory sync): super admins of organisation teams on the plans with SCIM.

const TeamSlug = z.string().min(1).max(100);

/** The saved connection as the console sees it: the bind password never leaves the Hub. */
export const DirectoryConnection = z.object({
  kind: z.enum(DIRECTORY_KINDS),
  url: z.string(),
  security: z.enum(DIRECTORY_SECURITY),
  ca_pem: z.string(),
  bind_dn: z.string(),
  has_password: z.boolean(),
  base_dns: z.array(z.string()),
  mapping: DirectoryMapping,
  remove_missing: z.boolean(),
  interval_minutes: z.number().int().nullable(),
  applied_at: z.string().nullable(),
  next_run_at: z.string().nullable(),
});
export type DirectoryConnection = z.infer<typeof DirectoryConnection>;

export const DirectoryRun = z.object({
  id: z.string(),
  trigger: z.enum(DIRECTORY_RUN_TRIGGERS),
  actor: z.string(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  outcome: z.enum(DIRECTORY_RUN_OUTCOMES),
  error_code: z.string().nullable(),
  error_message: z.string().nullable(),
  counts: z.record(z.string(), z.number()),
  sample: z.record(z.string(), z.array(z.string())),
});
export type DirectoryRun = z.infer<typeof DirectoryRun>;

const DirectorySettingsForm = z.intersection(
  DirectoryConnectionForm,
  z.object({
    remove_missing: z.boolean().default(false),
    interval_minutes: z.union([z.literal(null), z.literal(60), z.literal(240), z.literal(720), z.literal(1440)]).default(null),
  }),
);

export const directorySettingsEndpoint = defineEndpoint({
  name: 'directorySettings',
  program: 'hub',
  method: 'POST',
  path: '/directory/settings/',
  auth: 'hubAuth',
  access: RULES.scim,
  summary: "The team's directory connection (null before one is saved) and its last runs, newest first.",
  input: z.object({ team_slug: TeamSlug }),
  output: z.object({ connection: DirectoryConnection.nullable(), runs: z.array(DirectoryRun) }),
});

export const directoryTestEndpoint = defineEndpoint({
  name: 'directoryTest',
  program: 'hub',
  method: 'POST',
  path: '/directory/test/',
  auth: 'hubAuth',
  access: RULES.scim,
  errors: ['directory_unreadable'],
  summary:
    'Binds with the form (an empty password: the saved one, only for the saved address), counts users and groups and maps five sample users; saves nothing.',
  input: z.intersection(DirectoryConnectionForm, z.object({ team_slug: TeamSlug })),
  output: z.object({
    users: z.number().int(),
    groups: z.number().int(),
    samples: z.array(
      z.object({
        id: z.string(),
        email: z.string().nullable(),
        name: z.string(),
        login: z.string().nullable(),
        disabled: z.boolean(),
      }),
    ),
  }),
});

export const directorySaveEndpoint = defineEndpoint({
  name: 'directorySave',
  program: 'hub',
  method: 'POST',
  path: '/directory/settings/save/',
  auth: 'hubAuth',
  access: RULES.scim,
  errors: ['directory_unreadable', 'approval_required', 'approval_check_unavailable'],
  summary: 'Saves the connection after a bind that works; nothing is saved when it fails.',
  input: z.intersection(DirectorySettingsForm, z.object({ team_slug: TeamSlug })),
  output: z.object({ connection: DirectoryConnection }),
});

export const directoryDeleteEndpoint = defineEndpoint({
  name: 'directoryDelete',
  program: 'hub',
  method: 'POST',
  path: '/directory/settings/delete/',
  auth: 'hubAuth',
  access: RULES.scim,
  errors: ['not_found', 'approval_required', 'approval_check_unavailable'],
  summary: 'Stops directory sync and forgets the connection (members and groups stay as they are).',
  input: z.object({ team_slug: TeamSlug }),
  output: z.object({ code: z.literal('ok') }),
});

export const directoryPreviewEndpoint = defineEndpoint({
  name: 'directoryPreview',
  program: 'hub',
  method: 'POST',
  path: '/directory/preview/',
  auth: 'hubAuth',
  access: RULES.scim,
  errors: ['not_found', 'directory_unreadable', 'server_unreachable'],
  summary: 'Reads the directory and the team and says what a sync would change; changes nothing.',
  input: z.object({ team_slug: TeamSlug }),
  output: z.object({ run: DirectoryRun }),
});

export const directoryApplyEndpoint = defineEndpoint({
  name: 'directoryApply',
  program: 'hub',
  method: 'POST',
  path: '/directory/apply/',
  auth: 'hubAuth',
  access: RULES.scim,
  errors: [
    'not_found',
    'directory_unreadable',
    'directory_changed',
    'server_unreachable',
    'approval_required',
    'approval_check_unavailable',
  ],
  summary:
    'Applies a preview: the directory is read again, and when it no longer gives the same changes nothing is applied (directory_changed).',
  input: z.object({ team_slug: TeamSlug, run_id: z.string().uuid() }),
  output: z.object({ run: DirectoryRun }),
});

export const directorySyncNowEndpoint = defineEndpoint({
  name: 'directorySyncNow',
  program: 'hub',
  method: 'POST',
  path: '/directory/sync/',
  auth: 'hubAuth',
  access: RULES.scim,
  errors: [
    'not_found',
    'directory_unreadable',
    'directory_preview_first',
    'server_unreachable',
    'approval_required',
    'approval_check_unavailable',
  ],
  summary: 'Syncs now, as a scheduled run does; only once a preview was applied.',
  input: z.object({ team_slug: TeamSlug }),
  output: z.object({ run: DirectoryRun }),
});
