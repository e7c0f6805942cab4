import { z } from 'zod';
import { RULES } from './access.ts';
import { defineEndpoint } from './endpoint.ts';
import { SECURITY_KEY_NAME_MAX } from './sign-in-constants.ts';

const KeyId = z.string().uuid('Something went wrong');

export const SecurityKey = z.object({
  id: z.string(),
  /** Empty when the admin gave none; the console then shows a generic name. */
  name: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type SecurityKey = z.infer<typeof SecurityKey>;

export const u2fKeysEndpoint = defineEndpoint({
  name: 'u2fKeys',
  program: 'server',
  method: 'POST',
  path: '/api/v1/console/auth/u2f/keys/',
  auth: 'session',
  access: RULES.anyAdmin,
  summary: "The signed-in admin's security keys, oldest first.",
  input: z.object({}).passthrough(),
  output: z.object({ keys: z.array(SecurityKey) }),
});

export const u2fKeyRenameEndpoint = defineEndpoint({
  name: 'u2fKeyRename',
  program: 'server',
  method: 'POST',
  path: '/api/v1/console/auth/u2f/keys/rename/',
  auth: 'session',
  access: RULES.anyAdmin,
  errors: ['not_found'],
  summary: 'Rename one of your security keys.',
  input: z.object({
    id: KeyId,
    name: z.string().trim().min(1, 'this field is required').max(SECURITY_KEY_NAME_MAX, 'account.security_key_name_too_long'),
  }),
  output: z.object({ code: z.literal('security_key_renamed') }),
});

export const u2fKeyRemoveEndpoint = defineEndpoint({
  name: 'u2fKeyRemove',
  program: 'server',
  method: 'POST',
  path: '/api/v1/console/auth/u2f/keys/remove/',
  auth: 'session',
  access: RULES.anyAdmin,
  errors: ['not_found', 'password_invalid'],
  summary: 'Remove one of your security keys; needs the current password (a second factor goes away).',
  input: z.object({ id: KeyId, password: z.string().min(1, 'please enter your password').max(1024) }),
  output: z.object({ code: z.literal('security_key_removed') }),
});
