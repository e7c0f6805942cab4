import type { ScimConnector, ScimIdp } from '@latchkey/contracts/client';

/** Which dialog the SCIM screen has open. */
export type Dialog =
  | { kind: 'create' }
  | { kind: 'rotate'; connector: ScimConnector }
  | { kind: 'revoke'; connector: ScimConnector }
  | { kind: 'token'; idp: ScimIdp; token: string; tenantUrl: string; rotated: boolean };
