import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';
import { EventTime } from './eventlogs.ts';
import { EVENT_TYPES } from './eventlogs-constants.ts';
import { SHARING_BOUNDS } from './services-constants.ts';

/**
 * The Hub's client ingestion API: what the team's password-manager apps send. Only counts,
 * scores and metadata arrive here, never a secret: the apps compute vault health locally.
 * A device registers once with an enrolment grant and then authenticates every call with
 * `Authorization: Bearer <device_id>.<device_secret>`.
 */

const Count = z.number().int().min(0).max(1_000_000);

export const deviceRegisterEndpoint = defineEndpoint({
  name: 'deviceRegister',
  program: 'hub',
  method: 'POST',
  path: '/api/v1/client/devices/register/',
  auth: 'public',
  errors: ['forbidden', 'unauthorized'],
  summary:
    "Register a member's device with an enrolment grant (Authorization: Bearer, signed for the team with its Hub credential). Returns the device credential once; the Hub keeps only its hash.",
  input: z.object({
    team_slug: z.string().min(1).max(100),
    name: z.string().trim().min(1).max(100),
    os: z.string().trim().max(50).default(''),
    app_version: z.string().trim().max(30).default(''),
    /** The device's public key (base64), which recovery encrypts to; optional until recovery is used. */
    public_key: z
      .string()
      .max(2000)
      .regex(/^[A-Za-z0-9+/=_-]+$/, 'The public key must be base64.')
      .optional(),
  }),
  output: z.object({ device_id: z.string(), device_secret: z.string(), email: z.string() }),
});

export const vaultSummaryIngestEndpoint = defineEndpoint({
  name: 'vaultSummaryIngest',
  program: 'hub',
  method: 'POST',
  path: '/api/v1/client/vault/summary/',
  auth: 'device',
  errors: ['service_disabled'],
  summary: "Report the member's vault health, computed on the device: counts and a 0-100 score, never secrets.",
  input: z
    .object({
      total_items: Count,
      weak: Count,
      reused: Count,
      old: Count,
      compromised: Count,
      score: z.number().int().min(0).max(100),
    })
    .strict()
    .refine((s) => Math.max(s.weak, s.reused, s.old, s.compromised) <= s.total_items, {
      message: 'A count cannot exceed the number of items.',
    }),
  output: z.object({ summary_id: z.string() }),
});

export const shareCreateEndpoint = defineEndpoint({
  name: 'shareCreate',
  program: 'hub',
  method: 'POST',
  path: '/api/v1/client/shares/create/',
  auth: 'device',
  errors: ['service_disabled', 'sharing_limit_exceeded'],
  summary: "Record a share link the member created; its expiry and view limit must be within the team's sharing limits.",
  input: z
    .object({
      label: z.string().trim().max(100).default(''),
      expires_in_hours: z.number().int().min(1).max(SHARING_BOUNDS.max_expiry_hours.max),
      view_limit: z.number().int().min(1).max(SHARING_BOUNDS.max_views.max),
    })
    .strict(),
  output: z.object({ share_id: z.string(), expires_at: z.string(), view_limit: z.number().int() }),
});

export const shareViewEndpoint = defineEndpoint({
  name: 'shareView',
  program: 'hub',
  method: 'POST',
  path: '/api/v1/client/shares/view/',
  auth: 'device',
  errors: ['service_disabled', 'share_unavailable'],
  summary: 'Count one view of a share link; refused once it is revoked, expired or used up.',
  input: z.object({ share_id: z.uuid() }),
  output: z.object({ views: z.number().int(), view_limit: z.number().int() }),
});

export const recoveryRequestCreateEndpoint = defineEndpoint({
  name: 'recoveryRequestCreate',
  program: 'hub',
  method: 'POST',
  path: '/api/v1/client/recovery/requests/create/',
  auth: 'device',
  errors: ['service_disabled'],
  summary: "Ask the team's recovery admins to recover the member's account (one open request at a time).",
  input: z.object({}).strict(),
  output: z.object({ request_id: z.string(), state: z.string() }),
});

export const recoveryRequestStatusEndpoint = defineEndpoint({
  name: 'recoveryRequestStatus',
  program: 'hub',
  method: 'POST',
  path: '/api/v1/client/recovery/requests/status/',
  auth: 'device',
  errors: ['service_disabled', 'not_found'],
  summary: "The state of the member's own recovery request and, once approved, when its link expires.",
  input: z.object({ request_id: z.uuid() }),
  output: z.object({ state: z.string(), link_expires_at: z.string().nullable() }),
});

export const recoveryAdminNominationsEndpoint = defineEndpoint({
  name: 'recoveryAdminNominations',
  program: 'hub',
  method: 'POST',
  path: '/api/v1/client/recovery/admin/requests/',
  auth: 'device',
  errors: ['service_disabled'],
  summary: "The member's own pending nominations to become a recovery admin, for the app to offer approval.",
  input: z.object({}).strict(),
  output: z.object({ requests: z.array(z.object({ request_id: z.string(), requested_by: z.string(), created_at: z.string() })) }),
});

export const recoveryAdminAcceptEndpoint = defineEndpoint({
  name: 'recoveryAdminAccept',
  program: 'hub',
  method: 'POST',
  path: '/api/v1/client/recovery/admin/requests/accept/',
  auth: 'device',
  errors: ['service_disabled', 'not_found', 'user_key_missing'],
  summary:
    "The nominated member's approval of becoming a recovery admin, from a device with a public key (which receives the recovery group secret).",
  input: z.object({ request_id: z.uuid() }),
  output: z.object({ state: z.string() }),
});

export const eventsIngestEndpoint = defineEndpoint({
  name: 'eventsIngest',
  program: 'hub',
  method: 'POST',
  path: '/api/v1/client/events/',
  auth: 'device',
  errors: ['service_disabled'],
  summary:
    "Append up to 100 activity events from the device (type and time; no item contents). A batch with an event outside the time bounds (2000-01-01 to one day after the Hub's clock) is refused whole (invalid_input, errors.event_time_out_of_range at events.N.occurred_at for each such event) and nothing is stored: the events carry no id, so a batch partly stored and sent again would store the rest twice.",
  input: z.object({
    events: z
      .array(
        z.object({
          type: z.enum(EVENT_TYPES),
          occurred_at: EventTime,
          detail: z.record(z.string().max(50), z.union([z.string().max(200), z.number(), z.boolean()])).default({}),
        }),
      )
      .min(1)
      .max(100),
  }),
  output: z.object({ accepted: z.number().int() }),
});
