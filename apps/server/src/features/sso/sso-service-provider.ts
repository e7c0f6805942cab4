import { IDP_PRESETS, type IdpType } from '@latchkey/contracts';
import type { Sealer } from '@latchkey/runtime';
import { AppError, type Db } from '@latchkey/runtime';
import { type CacheProvider, SAML, ValidateInResponseTo } from '@node-saml/node-saml';
import type { Limiter } from '../../platform/limits.ts';
import { selfSignedRsa } from '../../platform/self-signed.ts';
import type { HubSessionEnder } from '../integration/index.ts';
import type { ResponseFacts } from './saml-response.ts';
import { type ConnectorRow, ssoRepository as repo } from './sso.repository.ts';

/** How long an AuthnRequest may be answered. */
const REQUEST_MINUTES = 10;
/** Clock skew allowed between us and the identity provider. */
export const SKEW_MS = 60_000;
export const METADATA_MAX_BYTES = 512 * 1024;

export interface SsoDeps {
  db: Db;
  sealer: Sealer;
  /** The console's public address (PUBLIC_URL, or the listening address outside production). */
  consoleUrl: () => string | null;
  /** Development and tests: an identity provider on loopback http. */
  allowLoopbackHttp: boolean;
  /** The email step's per-client limits (platform/limits.ts), which SSO start shares. */
  limiter: Limiter;
  /** Tells the Hubs when console sessions end, so the Hub sessions they opened end too. */
  hubSessions: Pick<HubSessionEnder, 'sessionsEnded'>;
}

/**
 * The team's SAML service provider: its addresses under the console's public address, its key pair,
 * the SAML client for a connector, and the SAML request (whose id the answer must carry).
 */
export function createServiceProvider({ db, sealer, consoleUrl }: SsoDeps) {
  const base = () => {
    const url = consoleUrl();
    if (!url)
      throw new AppError('saml_client_generation_failed', 'PUBLIC_URL is not set: no SAML address can be made.').shows(
        'errors.saml_client_generation_failed',
      );
    return url;
  };
  const sp = (teamSlug: string) => ({
    entityId: `${base()}/sso/saml/${encodeURIComponent(teamSlug)}`,
    acsUrl: `${base()}/sso/login/saml/acs/`,
  });

  /** The team's SP key pair, made on first use; the private key is stored sealed. */
  async function spKey(teamId: string, teamName: string) {
    let row = await repo.spKey(db, teamId);
    if (!row) {
      const made = await selfSignedRsa(`Latchkey SSO ${teamName}`);
      await repo.saveSpKey(db, teamId, sealer.seal(made.privateKeyPem), made.certificatePem);
      row = await repo.spKey(db, teamId);
    }
    if (!row) throw new Error('no SP key');
    return { privateKey: sealer.open(row.private_key_sealed), certificate: row.certificate };
  }

  function samlFor(
    team: { slug: string },
    config: ConnectorRow,
    key: { privateKey: string; certificate: string },
    cache: CacheProvider,
    facts?: ResponseFacts,
  ) {
    const { entityId, acsUrl } = sp(team.slug);
    const mode = config.sign_mode;
    return new SAML({
      entryPoint: config.idp_sso_url ?? undefined,
      issuer: entityId,
      callbackUrl: acsUrl,
      audience: entityId,
      idpCert: config.idp_certificates,
      idpIssuer: config.idp_entity_id ?? undefined,
      privateKey: key.privateKey,
      publicCert: key.certificate,
      signatureAlgorithm: 'sha256',
      digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
      identifierFormat: IDP_PRESETS[config.idp_type as IdpType].requestNameIdFormat,
      disableRequestedAuthnContext: true,
      // What the connector demands, and every signature that is present must verify too.
      wantAssertionsSigned: mode !== 'response' || Boolean(facts?.assertionSigned),
      wantAuthnResponseSigned: mode !== 'assertion' || Boolean(facts?.responseSigned),
      acceptedClockSkewMs: SKEW_MS,
      validateInResponseTo: ValidateInResponseTo.always,
      requestIdExpirationPeriodMs: REQUEST_MINUTES * 60_000,
      cacheProvider: cache,
    });
  }

  /** Makes the SAML request and stores its id (InResponseTo of the answer). */
  async function request(
    team: { id: string; slug: string; name: string },
    config: ConnectorRow,
    email: string | null,
    test: boolean,
    requestedBy: string | null,
  ) {
    if (!config.idp_entity_id || !config.idp_sso_url || config.idp_certificates.length === 0)
      throw new AppError(
        'saml_client_generation_failed',
        'The SSO connector has no identity provider metadata yet, so no SAML request can be made.',
      ).shows('errors.sso_no_metadata');
    const key = await spKey(team.id, team.name);
    let id: string | null = null;
    const capture: CacheProvider = {
      saveAsync: async (k, value) => {
        id = k;
        return { value, createdAt: Date.now() };
      },
      getAsync: async () => null,
      removeAsync: async () => null,
    };
    const redirect_url = await samlFor(team, config, key, capture).getAuthorizeUrlAsync('', undefined, {});
    if (!id) throw new AppError('saml_client_generation_failed', 'No SAML request id was made.');
    await repo.saveRequest(db, { id, teamId: team.id, configId: config.id, email, test, requestedBy }, REQUEST_MINUTES);
    return { redirect_url, saml_request_id: id as string };
  }

  /** Where the browser goes after the ACS: the sso page with a one-time token or a §8 code. */
  const returnTo = (params: Record<string, string>) => `${base()}/#/sso?${new URLSearchParams(params)}`;

  return { base, sp, spKey, samlFor, request, returnTo };
}

export type ServiceProvider = ReturnType<typeof createServiceProvider>;
