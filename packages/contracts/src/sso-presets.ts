import type { IdpType, SignMode } from './sso-constants.ts';

const EMAIL_ADDRESS = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
const UNSPECIFIED = 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified';
const PERSISTENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent';

/**
 * What each identity provider does by default, and where the ACS and the tester look for a person's
 * email, name and groups. Checked against each vendor's published sample metadata
 * (apps/server/src/features/sso/fixtures/README.md) and admin documentation (docs/sso.md).
 */
export interface IdpPreset {
  /** The signature this provider puts on a response out of the box: what a new connector demands. */
  signMode: SignMode;
  /** The NameID format the provider sends unless told otherwise. */
  defaultNameIdFormat: string;
  /** The NameID format our AuthnRequest asks for (the setup steps tell the admin to choose it). */
  requestNameIdFormat: string;
  /** Attribute names, in the order tried, that carry these (compared without case). */
  email: readonly string[];
  name: readonly string[];
  givenName: readonly string[];
  surname: readonly string[];
  groups: readonly string[];
  /** How many setup steps the console shows (i18n `sso.preset.<type>.step<n>`). */
  steps: number;
}

const CLAIMS = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims';

/**
 * Names any SAML provider may use: plain words, the eduPerson/inetOrgPerson OIDs (Shibboleth), and
 * the WS-Federation claim URIs (AD FS and Entra ID).
 */
const COMMON = {
  email: ['email', 'mail', 'emailaddress', 'urn:oid:0.9.2342.19200300.100.1.3', `${CLAIMS}/emailaddress`],
  name: ['name', 'displayname', 'urn:oid:2.16.840.1.113730.3.1.241'],
  givenName: ['firstname', 'givenname', 'urn:oid:2.5.4.42', `${CLAIMS}/givenname`],
  surname: ['lastname', 'surname', 'sn', 'urn:oid:2.5.4.4', `${CLAIMS}/surname`],
  groups: [
    'groups',
    'memberof',
    'ismemberof',
    'urn:oid:1.3.6.1.4.1.5923.1.5.1.1',
    'http://schemas.microsoft.com/ws/2008/06/identity/claims/groups',
    'http://schemas.xmlsoap.org/claims/group',
  ],
} as const;

export const IDP_PRESETS: Record<IdpType, IdpPreset> = {
  // Entra ID signs the assertion by default ("Sign SAML assertion"), SHA-256; the default claims are
  // the WS-Federation claim URIs: emailaddress (user.mail), name (user.userprincipalname, so an
  // address, not a display name), givenname, surname; groups (object IDs) once a group claim is added.
  azure: {
    signMode: 'assertion',
    defaultNameIdFormat: EMAIL_ADDRESS,
    requestNameIdFormat: EMAIL_ADDRESS,
    email: [`${CLAIMS}/emailaddress`, `${CLAIMS}/name`, `${CLAIMS}/upn`],
    name: ['http://schemas.microsoft.com/identity/claims/displayname'],
    givenName: [`${CLAIMS}/givenname`],
    surname: [`${CLAIMS}/surname`],
    groups: ['http://schemas.microsoft.com/ws/2008/06/identity/claims/groups'],
    steps: 5,
  },
  // Okta's SAML app signs both the response and the assertion by default; NameID "Unspecified" with
  // the Okta username unless set to EmailAddress; attribute statements are whatever the admin names.
  okta: {
    signMode: 'both',
    defaultNameIdFormat: UNSPECIFIED,
    requestNameIdFormat: EMAIL_ADDRESS,
    email: ['email'],
    name: ['name', 'displayName'],
    givenName: ['firstName'],
    surname: ['lastName'],
    groups: ['groups'],
    steps: 5,
  },
  // Google signs the assertion; "Signed response" (off by default) signs the whole response instead.
  // Name ID: primary email, format UNSPECIFIED unless set to EMAIL; attributes are admin-mapped.
  google: {
    signMode: 'assertion',
    defaultNameIdFormat: UNSPECIFIED,
    requestNameIdFormat: EMAIL_ADDRESS,
    email: ['email'],
    name: ['name'],
    givenName: ['firstName'],
    surname: ['lastName'],
    groups: ['groups'],
    steps: 5,
  },
  // OneLogin: "SAML signature element" defaults to Assertion; the connector sends User.email,
  // User.FirstName, User.LastName and memberOf parameters; its published metadata offers persistent.
  onelogin: {
    signMode: 'assertion',
    defaultNameIdFormat: PERSISTENT,
    requestNameIdFormat: EMAIL_ADDRESS,
    email: ['User.email', 'email'],
    name: ['name'],
    givenName: ['User.FirstName'],
    surname: ['User.LastName'],
    groups: ['memberOf', 'groups'],
    steps: 5,
  },
  // JumpCloud signs the response; "Sign Assertion" is off by default. SAMLSubject is the email with
  // the emailAddress format in its exported metadata; "Include group attribute" is named memberOf.
  // Its exported metadata may list only the HTTP-POST sign-on binding (the same URL takes redirects).
  jumpcloud: {
    signMode: 'response',
    defaultNameIdFormat: EMAIL_ADDRESS,
    requestNameIdFormat: EMAIL_ADDRESS,
    email: ['email'],
    name: ['name'],
    givenName: ['firstname'],
    surname: ['lastname'],
    groups: ['memberOf'],
    steps: 5,
  },
  generic_saml: {
    signMode: 'assertion',
    defaultNameIdFormat: UNSPECIFIED,
    requestNameIdFormat: EMAIL_ADDRESS,
    email: [],
    name: [],
    givenName: [],
    surname: [],
    groups: [],
    steps: 4,
  },
};

/** The attribute names tried for a preset: its own first, then the common ones. */
export function attributeNames(type: IdpType) {
  const preset = IDP_PRESETS[type];
  const merge = (own: readonly string[], common: readonly string[]) => [
    ...new Set([...own, ...common].map((n) => n.toLowerCase())),
  ];
  return {
    email: merge(preset.email, COMMON.email),
    name: merge(preset.name, COMMON.name),
    givenName: merge(preset.givenName, COMMON.givenName),
    surname: merge(preset.surname, COMMON.surname),
    groups: merge(preset.groups, COMMON.groups),
  };
}
