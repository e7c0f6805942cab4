import { CORE_GROUP, CORE_USER, ENTERPRISE_USER, MAX_RESULTS } from './scim-schema.ts';

const LIST = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';

/** RFC 7643 §5: what this SCIM server supports. */
export const serviceProviderConfig = (base: string) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
  documentationUri: `${base.replace(/\/scim\/v2$/, '')}/#/settings/scim-connectors`,
  patch: { supported: true },
  bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
  filter: { supported: true, maxResults: MAX_RESULTS },
  changePassword: { supported: false },
  sort: { supported: true },
  etag: { supported: true },
  authenticationSchemes: [
    {
      type: 'oauthbearertoken',
      name: 'Bearer token',
      description: "The connector's bearer token, from the console's SCIM connectors page.",
      primary: true,
    },
  ],
  meta: { resourceType: 'ServiceProviderConfig', location: `${base}/ServiceProviderConfig` },
});

const attr = (name: string, type: string, extra: Record<string, unknown> = {}) => ({
  name,
  type,
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...extra,
});
const multi = (name: string, subs: ReturnType<typeof attr>[]) =>
  attr(name, 'complex', { multiValued: true, subAttributes: subs });

/** RFC 7643 §7: every schema resource names the Schema schema. */
const SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Schema';

export const SCHEMAS = [
  {
    schemas: [SCHEMA],
    id: CORE_USER,
    name: 'User',
    description: 'A member of the team.',
    attributes: [
      attr('userName', 'string', { required: true, uniqueness: 'server' }),
      attr('name', 'complex', {
        subAttributes: ['formatted', 'familyName', 'givenName', 'middleName', 'honorificPrefix', 'honorificSuffix'].map((n) =>
          attr(n, 'string'),
        ),
      }),
      attr('displayName', 'string'),
      attr('nickName', 'string'),
      attr('title', 'string'),
      attr('userType', 'string'),
      attr('preferredLanguage', 'string'),
      attr('locale', 'string'),
      attr('timezone', 'string'),
      attr('active', 'boolean'),
      attr('externalId', 'string', { caseExact: true }),
      multi('emails', [attr('value', 'string'), attr('type', 'string'), attr('primary', 'boolean')]),
      multi('phoneNumbers', [attr('value', 'string'), attr('type', 'string'), attr('primary', 'boolean')]),
      multi('addresses', [
        ...['formatted', 'streetAddress', 'locality', 'region', 'postalCode', 'country', 'type'].map((n) => attr(n, 'string')),
        attr('primary', 'boolean'),
      ]),
      // RFC 7643 §4.1.2: the groups the member is in, set by the server.
      attr('groups', 'complex', {
        multiValued: true,
        mutability: 'readOnly',
        subAttributes: [
          attr('value', 'string', { mutability: 'readOnly' }),
          attr('$ref', 'reference', { mutability: 'readOnly', referenceTypes: ['Group'] }),
          attr('display', 'string', { mutability: 'readOnly' }),
          attr('type', 'string', { mutability: 'readOnly', canonicalValues: ['direct', 'indirect'] }),
        ],
      }),
    ],
    meta: { resourceType: 'Schema' },
  },
  {
    schemas: [SCHEMA],
    id: ENTERPRISE_USER,
    name: 'EnterpriseUser',
    description: 'Enterprise User',
    attributes: [
      ...['employeeNumber', 'costCenter', 'organization', 'division', 'department'].map((n) => attr(n, 'string')),
      attr('manager', 'complex', {
        subAttributes: [
          attr('value', 'string'),
          attr('$ref', 'reference'),
          attr('displayName', 'string', { mutability: 'readOnly' }),
        ],
      }),
    ],
    meta: { resourceType: 'Schema' },
  },
  {
    schemas: [SCHEMA],
    id: CORE_GROUP,
    name: 'Group',
    description: 'A group of members.',
    attributes: [
      attr('displayName', 'string', { required: true, uniqueness: 'server' }),
      attr('externalId', 'string', { caseExact: true }),
      multi('members', [
        attr('value', 'string', { caseExact: true, mutability: 'immutable' }),
        attr('$ref', 'reference', { mutability: 'immutable' }),
        attr('display', 'string', { mutability: 'readOnly' }),
        attr('type', 'string', { mutability: 'immutable' }),
      ]),
    ],
    meta: { resourceType: 'Schema' },
  },
];

export const schemasResponse = (base: string) => ({
  schemas: [LIST],
  totalResults: SCHEMAS.length,
  startIndex: 1,
  itemsPerPage: SCHEMAS.length,
  Resources: SCHEMAS.map((s) => ({ ...s, meta: { ...s.meta, location: `${base}/Schemas/${s.id}` } })),
});

export const RESOURCE_TYPES = (base: string) => [
  {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
    id: 'User',
    name: 'User',
    endpoint: '/Users',
    schema: CORE_USER,
    schemaExtensions: [{ schema: ENTERPRISE_USER, required: false }],
    meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/User` },
  },
  {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
    id: 'Group',
    name: 'Group',
    endpoint: '/Groups',
    schema: CORE_GROUP,
    meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/Group` },
  },
];

export const resourceTypesResponse = (base: string) => {
  const types = RESOURCE_TYPES(base);
  return { schemas: [LIST], totalResults: types.length, startIndex: 1, itemsPerPage: types.length, Resources: types };
};
