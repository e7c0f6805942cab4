import { z } from 'zod';
import { RULES } from './access.ts';
import { PageInfo, Paging } from './audit.ts';
import { defineEndpoint } from './endpoint.ts';
import { SHARING_BOUNDS } from './services-constants.ts';

export const ShareLink = z.object({
  share_id: z.string(),
  email: z.string(),
  label: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
  view_limit: z.number().int(),
  views: z.number().int(),
});
export type ShareLink = z.infer<typeof ShareLink>;

export const sharingLinksEndpoint = defineEndpoint({
  name: 'sharingLinks',
  program: 'hub',
  method: 'POST',
  path: '/api/v1/sharing/links/',
  auth: 'hubAuth',
  access: RULES.sharing,
  errors: ['service_disabled'],
  summary: 'Active share links (not revoked, expired or used up), by member, newest first.',
  input: z.object({ team_slug: z.string().max(100), ...Paging, search_value: z.string().trim().max(100).default('') }),
  output: z.object({ results: z.array(ShareLink), ...PageInfo }),
});

export const sharingRevokeEndpoint = defineEndpoint({
  name: 'sharingRevoke',
  program: 'hub',
  method: 'POST',
  path: '/api/v1/sharing/links/revoke/',
  auth: 'hubAuth',
  access: RULES.sharing,
  errors: ['service_disabled'],
  summary: 'Revoke share links now; a revoked link cannot be viewed again.',
  input: z.object({ team_slug: z.string().max(100), share_ids: z.array(z.uuid()).min(1).max(100) }),
  output: z.object({ revoked: z.number().int() }),
});

export const SharingLimits = z.object({
  max_expiry_hours: z.number().int().min(SHARING_BOUNDS.max_expiry_hours.min).max(SHARING_BOUNDS.max_expiry_hours.max),
  max_views: z.number().int().min(SHARING_BOUNDS.max_views.min).max(SHARING_BOUNDS.max_views.max),
});
export type SharingLimits = z.infer<typeof SharingLimits>;

export const sharingLimitsEndpoint = defineEndpoint({
  name: 'sharingLimits',
  program: 'hub',
  method: 'POST',
  path: '/api/v1/sharing/limits/',
  auth: 'hubAuth',
  access: RULES.sharing,
  errors: ['service_disabled'],
  summary: "The team's sharing limits, which the ingestion API enforces on new links.",
  input: z.object({ team_slug: z.string().max(100) }),
  output: SharingLimits,
});

export const sharingLimitsUpdateEndpoint = defineEndpoint({
  name: 'sharingLimitsUpdate',
  program: 'hub',
  method: 'POST',
  path: '/api/v1/sharing/limits/update/',
  auth: 'hubAuth',
  access: RULES.sharing,
  errors: ['service_disabled'],
  summary: 'Change the sharing limits (maximum expiry in hours, maximum views); existing links keep theirs.',
  input: SharingLimits.extend({ team_slug: z.string().max(100) }),
  output: SharingLimits,
});
