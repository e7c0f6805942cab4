import { z } from 'zod';
import { AUX_SERVICES, BUSINESS_CLOUDS, ORGANIZATION_TYPES, RULES, SCOPES, TEAM_TYPES } from './access.ts';
import { defineEndpoint } from './endpoint.ts';

const Empty = z.object({}).passthrough();

export const OnboardingWizard = z.object({
  enable_console: z.boolean(),
  resume_notification: z.boolean(),
  show_wizard: z.boolean(),
  state: z.object({ stage: z.string() }).passthrough(),
});

export const Team = z.object({
  team_name: z.string(),
  team_slug: z.string(),
  team_type: z.enum(TEAM_TYPES),
  organization_type: z.enum(ORGANIZATION_TYPES),
  bill_state: z.string(),
  bill_type: z.string(),
  business_cloud: z.enum(BUSINESS_CLOUDS),
  purchase_partner: z.string().nullable(),
  is_team_policy_present: z.boolean(),
  started_on: z.string(),
  valid_till: z.string(),
  total_users: z.number(),
  /** Spec §3: grant_subscription says the team may grant the family plan to its members as a benefit. */
  benefit: z.object({ grant_subscription: z.boolean() }),
  onboarding_wizard: OnboardingWizard,
});
export type Team = z.infer<typeof Team>;

export const teamInfoEndpoint = defineEndpoint({
  name: 'teamInfo',
  program: 'server',
  method: 'POST',
  path: '/api/v1/team/info/',
  auth: 'session',
  access: RULES.anyAdmin,
  summary: 'The signed-in team.',
  input: Empty,
  output: Team,
});

export const adminScopeEndpoint = defineEndpoint({
  name: 'adminScope',
  program: 'server',
  method: 'POST',
  path: '/api/v1/team/admin/scope/',
  auth: 'session',
  access: RULES.anyAdmin,
  summary: "The signed-in admin's scopes in this team.",
  input: Empty,
  output: z.object({ scope: z.array(z.enum(SCOPES)) }),
});

export const adminInfoEndpoint = defineEndpoint({
  name: 'adminInfo',
  program: 'server',
  method: 'POST',
  path: '/api/v1/team/admin/info/',
  auth: 'session',
  access: RULES.anyAdmin,
  summary: 'The signed-in admin.',
  input: Empty,
  output: z.object({ user_email: z.string(), user_name: z.string() }),
});

export const allTeamsEndpoint = defineEndpoint({
  name: 'allTeams',
  program: 'server',
  method: 'POST',
  path: '/api/v1/team/all/',
  auth: 'session',
  access: RULES.anyAdmin,
  summary: 'Teams the signed-in person administers (for switching teams).',
  input: Empty,
  output: z.object({
    teams: z.array(z.object({ team_slug: z.string(), team_name: z.string(), team_type: z.enum(TEAM_TYPES) })),
  }),
});

export const ServiceStates = z.partialRecord(z.enum(AUX_SERVICES), z.object({ enabled: z.boolean(), status: z.number().int() }));

export const HubServer = z.object({
  server_url: z.string(),
  credential_id: z.string(),
  hub_version: z.string().nullable(),
  /** Whether the server reached the Hub when it last asked (on this very call). */
  reachable: z.boolean(),
  services: ServiceStates,
});
export type HubServer = z.infer<typeof HubServer>;

export const auxServicesEndpoint = defineEndpoint({
  name: 'auxServices',
  program: 'server',
  method: 'POST',
  path: '/api/v1/aux/services/',
  auth: 'session',
  access: RULES.anyAdmin,
  summary: "The team's Hub servers and the status of each auxiliary service.",
  input: Empty,
  output: z.object({ servers: z.array(HubServer) }),
});

/** A team's (a family team's family) name, as the rename takes it. */
export const TeamName = z.string().trim().min(1, 'family name compulsory').max(100, 'The name can be at most 100 characters.');

export const teamNameEditEndpoint = defineEndpoint({
  name: 'teamNameEdit',
  program: 'server',
  method: 'POST',
  path: '/api/v1/team/name/edit/',
  auth: 'session',
  access: RULES.superAdminAnyTeam,
  summary: "Rename the team (a family team's family name).",
  input: z.object({ team_name: TeamName }),
  output: z.object({ team_name: z.string() }),
});
