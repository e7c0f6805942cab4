import { z } from 'zod';
import { RULES } from './access.ts';
import { defineEndpoint } from './endpoint.ts';
import { GROUPS_PAGE_SIZE } from './groups-constants.ts';
import { BENEFIT_GRANT_TYPES } from './onboarding-constants.ts';

const BenefitGroup = z.object({ id: z.string(), name: z.string() });

/** Spec §3 Family benefit; groups chosen but empty count as unassigned (`none`). */
export const FamilyBenefit = z.object({
  benefit_grant_type: z.enum(BENEFIT_GRANT_TYPES),
  benefit_groups: z.array(BenefitGroup),
  /** Members of the team who hold the benefit now. */
  members_with_benefit: z.number().int(),
});
export type FamilyBenefit = z.infer<typeof FamilyBenefit>;

export const familyBenefitEndpoint = defineEndpoint({
  name: 'familyBenefit',
  program: 'server',
  method: 'POST',
  path: '/api/v1/benefits/family/grant/type/',
  auth: 'session',
  access: RULES.familyPlan,
  summary: 'Who gets the family plan as a benefit: nobody, every member, or the members of chosen groups.',
  input: z.object({}).passthrough(),
  output: FamilyBenefit,
});

export const familyBenefitUpdateEndpoint = defineEndpoint({
  name: 'familyBenefitUpdate',
  program: 'server',
  method: 'POST',
  path: '/api/v1/benefits/family/grant/type/update/',
  auth: 'session',
  access: RULES.familyPlan,
  errors: ['group_not_found'],
  summary: 'Assigns the family plan (none, all, groups) and gives or removes the benefit for the members concerned, at once.',
  input: z.object({
    benefit_grant_type: z.enum(BENEFIT_GRANT_TYPES),
    /** The team's slug, as the spec's call sends it; it must be the signed-in team. */
    team: z.string().max(200).optional(),
    team_group_ids: z.array(z.string().uuid('No such group.')).max(GROUPS_PAGE_SIZE).default([]),
  }),
  output: FamilyBenefit.extend({
    /** Members who got the benefit and who lost it by this change. */
    granted: z.number().int(),
    removed: z.number().int(),
    /** Groups that held the benefit before and no longer do. */
    removed_groups: z.array(BenefitGroup),
  }),
});
