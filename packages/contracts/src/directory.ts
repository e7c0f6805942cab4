import { z } from 'zod';

/**
 * Directory sync: the Hub reads the team's LDAP or Active Directory and keeps members and groups in
 * step. This module holds the connection form, the attribute mapping and its two presets.
 */

export const DIRECTORY_KINDS = ['active_directory', 'openldap'] as const;
export type DirectoryKind = (typeof DIRECTORY_KINDS)[number];

/** ldaps:// is TLS from the first byte; ldap:// with `starttls` upgrades before the bind; plain ldap:// only where the operator allows it. */
export const DIRECTORY_SECURITY = ['ldaps', 'starttls', 'none'] as const;
export type DirectorySecurity = (typeof DIRECTORY_SECURITY)[number];

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

/** The attributes Active Directory and OpenLDAP (inetOrgPerson, groupOfNames, groupOfUniqueNames, posixGroup) use. */
export const DIRECTORY_PRESETS: Record<DirectoryKind, DirectoryMapping> = {
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
