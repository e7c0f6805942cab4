import { z } from 'zod';
import { RULES, SCOPES } from './access.ts';
import {
  ELEVATION_END_REASONS,
  ELEVATION_MAX_MINUTES,
  ELEVATION_MIN_MINUTES,
  ELEVATION_REASON_MAX,
} from './admin-elevation-constants.ts';
import { Email } from './auth.ts';
import { defineEndpoint } from './endpoint.ts';

// Just-in-time admin rights: an admin eligible for a scope holds it only for a bounded time,
// approved by another super admin or, where the team allows it, self-granted with a logged reason.

/** The team's setting: off, every scope is standing (as the spec says); on, eligible admins elevate. */
export const ElevationSettings = z.object({
  enabled: z.boolean(),
  /** The scopes an eligible admin may take alone, with a logged reason (the approval policy's self_elevate_scopes). */
  self_scopes: z.array(z.enum(SCOPES)),
});
export type ElevationSettings = z.infer<typeof ElevationSettings>;

export const Elevation = z.object({
  id: z.string(),
  email: z.string(),
  scope: z.enum(SCOPES),
  minutes: z.number().int(),
  reason: z.string(),
  /** pending: waiting for approval; active: held until expires_at; ended: expired, dropped, withdrawn or rejected. */
  status: z.enum(['pending', 'active', 'ended']),
  requested_at: z.number(),
  /** Epoch ms; set once active. */
  expires_at: z.number().nullable(),
  /** The approval request of a pending elevation (features/approvals); null when self-granted. */
  request_id: z.string().nullable(),
  approved_by: z.string().nullable(),
  ended_reason: z.enum(ELEVATION_END_REASONS).nullable(),
});
export type Elevation = z.infer<typeof Elevation>;

const Minutes = z
  .number()
  .int()
  .min(ELEVATION_MIN_MINUTES, 'An elevation lasts 15 minutes at least.')
  .max(ELEVATION_MAX_MINUTES, 'An elevation lasts 8 hours at most.');

export const adminElevationsEndpoint = defineEndpoint({
  name: 'adminElevations',
  program: 'server',
  method: 'POST',
  path: '/api/v1/team/admin/elevations/',
  auth: 'session',
  access: RULES.anyAdmin,
  summary:
    "The team's just-in-time setting, the scopes the signed-in admin may elevate to, and their own elevations (pending, active and the last ended ones).",
  input: z.object({}),
  output: z.object({
    settings: ElevationSettings,
    eligible_scopes: z.array(z.enum(SCOPES)),
    elevations: z.array(Elevation),
    /** Whether another admin could approve a request now (false: only the operator or self-elevation can). */
    approvers_available: z.boolean(),
  }),
});

export const adminElevationRequestEndpoint = defineEndpoint({
  name: 'adminElevationRequest',
  program: 'server',
  method: 'POST',
  path: '/api/v1/team/admin/elevation/request/',
  auth: 'session',
  access: RULES.anyAdmin,
  errors: ['elevation_off', 'not_eligible', 'elevation_exists', 'elevation_not_found', 'approval_required'],
  summary:
    "Ask for a scope the admin is eligible for, for 15 minutes to 8 hours, with a reason: held at once (elevated) when the approval policy's self_elevate_scopes has it, else 202 approval_required: another super admin decides, and the scope is held from their approval.",
  input: z.object({
    scope: z.enum(SCOPES),
    minutes: Minutes,
    reason: z.string().trim().min(3, 'Say why, in a few words.').max(ELEVATION_REASON_MAX),
  }),
  output: z.object({
    code: z.literal('elevated'),
    elevation: Elevation,
    /** The approval request that granted it; null when self-granted. */
    request_id: z.string().nullable(),
  }),
});

export const adminElevationDropEndpoint = defineEndpoint({
  name: 'adminElevationDrop',
  program: 'server',
  method: 'POST',
  path: '/api/v1/team/admin/elevation/drop/',
  auth: 'session',
  access: RULES.anyAdmin,
  errors: ['elevation_not_found'],
  summary: "Give up one's own elevation before it expires, or withdraw a request still pending.",
  input: z.object({ id: z.string().uuid() }),
  output: z.object({ code: z.literal('dropped') }),
});

export const adminElevationSettingsEndpoint = defineEndpoint({
  name: 'adminElevationSettings',
  program: 'server',
  method: 'POST',
  path: '/api/v1/team/admin/elevation/settings/',
  auth: 'session',
  access: RULES.superAdmin,
  summary:
    "Switch just-in-time admin rights on or off (the scopes taken without an approver are the approval policy's self_elevate_scopes). Switching off ends every elevation.",
  input: z.object({ enabled: z.boolean() }),
  output: ElevationSettings,
});

export const adminEligibilityEndpoint = defineEndpoint({
  name: 'adminEligibility',
  program: 'server',
  method: 'POST',
  path: '/api/v1/team/admin/eligibility/',
  auth: 'session',
  access: RULES.superAdmin,
  errors: ['admin_not_in_team', 'last_super_admin', 'approval_required'],
  summary:
    "An administrator's standing scopes and the scopes they are eligible for just in time (a scope held standing is not also eligible). Refused (last_super_admin) when no standing super admin would remain: the team's way in.",
  input: z.object({
    email: Email,
    scopes: z
      .array(z.enum(SCOPES))
      .min(1, 'Choose at least one scope.')
      .transform((s) => [...new Set(s)]),
    eligible_scopes: z.array(z.enum(SCOPES)).transform((s) => [...new Set(s)]),
  }),
  output: z.object({ code: z.literal('updated') }),
});
