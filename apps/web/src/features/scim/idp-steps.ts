import type { ScimIdp } from '@latchkey/contracts/client';

/** How many setup steps each identity provider's guide has (scim.steps.<idp>.<n>, from 1). */
const IDP_STEPS: Record<ScimIdp, number> = { entra: 5, okta: 5, onelogin: 4, jumpcloud: 4, google: 4, generic: 3 };

export const stepKeys = (idp: ScimIdp): string[] =>
  Array.from({ length: IDP_STEPS[idp] }, (_, i) => `scim.steps.${idp}.${i + 1}`);
