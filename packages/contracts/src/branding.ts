import { z } from 'zod';
import { RULES } from './access.ts';
import { defineEndpoint } from './endpoint.ts';
import { LOGO_MAX_BYTES, LOGO_TYPES } from './groups-constants.ts';

/** The team's logo as the console shows it; `url` changes with every new image (cached for good). */
export const TeamLogo = z.object({
  url: z.string(),
  content_type: z.enum(LOGO_TYPES),
  size: z.number().int(),
  width: z.number().int(),
  height: z.number().int(),
  updated_at: z.string(),
});
export type TeamLogo = z.infer<typeof TeamLogo>;

// Base64 of LOGO_MAX_BYTES, rounded up; the exact byte size is checked after decoding.
const MAX_BASE64 = Math.ceil(LOGO_MAX_BYTES / 3) * 4;
const LogoUpload = z.object({
  content_type: z.enum(LOGO_TYPES, 'Choose a PNG, JPEG or WebP image.'),
  data: z
    .string()
    .min(1, 'this field is required')
    .max(MAX_BASE64, `The image can be at most ${LOGO_MAX_BYTES / 1024} KB.`)
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'The image must be sent as base64.'),
});

export const brandingEndpoint = defineEndpoint({
  name: 'branding',
  program: 'server',
  method: 'POST',
  path: '/organization/account/branding/',
  auth: 'session',
  // Every admin sees the logo in the top bar; only the super admin changes it.
  access: RULES.anyAdmin,
  summary: "The team's logo, or null when none is uploaded.",
  input: z.object({}).passthrough(),
  output: z.object({ logo: TeamLogo.nullable() }),
});

export const logoUploadEndpoint = defineEndpoint({
  name: 'logoUpload',
  program: 'server',
  method: 'POST',
  path: '/organization/account/logo/',
  auth: 'session',
  access: RULES.superAdmin,
  errors: ['invalid_image'],
  summary: 'Upload the team logo (PNG, JPEG or WebP, at most 512 KB, 16–4096 px a side); the bytes are checked, not trusted.',
  input: LogoUpload,
  output: z.object({ logo: TeamLogo }),
});

export const logoUpdateEndpoint = defineEndpoint({
  name: 'logoUpdate',
  program: 'server',
  method: 'POST',
  path: '/organization/account/logo/update/',
  auth: 'session',
  access: RULES.superAdmin,
  errors: ['invalid_image', 'not_found'],
  summary: 'Replace the team logo (same checks as the upload); not_found when there is none.',
  input: LogoUpload,
  output: z.object({ logo: TeamLogo }),
});

export const logoRemoveEndpoint = defineEndpoint({
  name: 'logoRemove',
  program: 'server',
  method: 'POST',
  path: '/organization/account/logo/remove/',
  auth: 'session',
  access: RULES.superAdmin,
  errors: ['not_found'],
  summary: 'Remove the team logo.',
  input: z.object({}).passthrough(),
  output: z.object({ code: z.literal('updated') }),
});
