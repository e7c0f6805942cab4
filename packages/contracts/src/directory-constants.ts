// Directory sync's constants, for the console without the schemas (see directory.ts).

export const DIRECTORY_KINDS = ['active_directory', 'openldap'] as const;
export type DirectoryKind = (typeof DIRECTORY_KINDS)[number];

/** ldaps:// is TLS from the first byte; ldap:// with `starttls` upgrades before the bind; plain ldap:// only where the operator allows it. */
export const DIRECTORY_SECURITY = ['ldaps', 'starttls', 'none'] as const;
export type DirectorySecurity = (typeof DIRECTORY_SECURITY)[number];

/** Where each field of a member or group is read from (the schema: `DirectoryMapping` in directory.ts). */
interface DirectoryMappingValues {
  user_filter: string;
  group_filter: string;
  user_id: string;
  user_email: string;
  user_email_fallback: string;
  user_name: string;
  user_login: string;
  user_disabled: string;
  group_id: string;
  group_name: string;
  group_member_dns: string[];
  group_member_logins: string[];
}

/** The attributes Active Directory and OpenLDAP (inetOrgPerson, groupOfNames, groupOfUniqueNames, posixGroup) use. */
export const DIRECTORY_PRESETS: Record<DirectoryKind, DirectoryMappingValues> = {
  active_directory: {
    // Computers are `user` objects too.
    user_filter: '(&(objectClass=user)(!(objectClass=computer)))',
    group_filter: '(objectClass=group)',
    user_id: 'objectGUID',
    user_email: 'mail',
    user_email_fallback: 'userPrincipalName',
    user_name: 'displayName',
    user_login: 'sAMAccountName',
    user_disabled: 'userAccountControl',
    group_id: 'objectGUID',
    group_name: 'cn',
    group_member_dns: ['member'],
    group_member_logins: [],
  },
  openldap: {
    user_filter: '(objectClass=inetOrgPerson)',
    group_filter: '(|(objectClass=groupOfNames)(objectClass=groupOfUniqueNames)(objectClass=posixGroup))',
    user_id: 'entryUUID',
    user_email: 'mail',
    user_email_fallback: '',
    user_name: 'displayName',
    user_login: 'uid',
    user_disabled: '',
    group_id: 'entryUUID',
    group_name: 'cn',
    group_member_dns: ['member', 'uniqueMember'],
    group_member_logins: ['memberUid'],
  },
};

/** Where a member came from: the one source that may change them (the console's own, a SCIM connector, directory sync). */
export const MEMBER_SOURCES = ['console', 'scim', 'directory'] as const;
export type MemberSource = (typeof MEMBER_SOURCES)[number];

export const DIRECTORY_RUN_OUTCOMES = ['running', 'previewed', 'applied', 'unchanged', 'failed'] as const;
export const DIRECTORY_RUN_TRIGGERS = ['preview', 'apply', 'sync_now', 'schedule'] as const;

/** Scheduled syncs: every hour, 4 hours, 12 hours or day (null: on demand only). */
export const DIRECTORY_INTERVALS = [60, 240, 720, 1440] as const;
/** Changes per batch: each batch is one transaction on the server. */
export const DIRECTORY_BATCH_MAX = 500;

/** What a sync changes, by kind, in the order an admin reads them (a run's counts and first rows). */
export const DIRECTORY_CHANGE_KINDS = [
  'invite',
  'update',
  'suspend',
  'restore',
  'remove',
  'group_create',
  'group_rename',
  'group_fill',
] as const;
/** What a sync leaves, and why: no licence left, no e-mail, an administrator, a member SCIM owns. */
export const DIRECTORY_NOTE_KINDS = ['not_fitting', 'no_email', 'admin_skipped', 'scim_skipped'] as const;
