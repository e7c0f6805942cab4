import {
  type EndpointArgs,
  IDP_PRESETS,
  type IdpType,
  type SsoConfig,
  type SsoTestResult,
  type ssoConfigUpdateEndpoint,
} from '@latchkey/contracts';
import { AppError, type Db, type Queryable } from '@latchkey/runtime';
import { type CacheProvider, SAML, ValidateInResponseTo } from '@node-saml/node-saml';
import type { Caller } from '../../http/caller.ts';
import type { Limiter } from '../../platform/limits.ts';
import { userUrlFetch } from '../../platform/outbound.ts';
import type { Sealer } from '../../platform/sealed.ts';
import { selfSignedRsa } from '../../platform/self-signed.ts';
import { loginTokensRepository } from '../auth/index.ts';
import type { HubSessionEnder } from '../integration/index.ts';
import { usersRepository } from '../users/index.ts';
import { MetadataInvalid, parseIdpMetadata } from './metadata.ts';
import {
  type CheckName,
  checkAgainst,
  emailOf,
  identityOf,
  inspectResponse,
  type ResponseFacts,
  SamlRefused,
} from './saml-response.ts';
import { type ConnectorRow, ssoRepository as repo } from './sso.repository.ts';

/** How long an AuthnRequest may be answered. */
const REQUEST_MINUTES = 10;
/** Clock skew allowed between us and the identity provider. */
const SKEW_MS = 60_000;
const METADATA_MAX_BYTES = 512 * 1024;

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

const notFound = () => new AppError('sso_not_found', 'No such SSO connector.', 404).shows('sso.not_found');

function statusOf(c: ConnectorRow): SsoConfig['status'] {
  if (c.active) return 'active';
  if (c.tested_at) return 'tested';
  return c.idp_entity_id ? 'awaiting_test' : 'awaiting_metadata';
}

const view = (c: ConnectorRow): SsoConfig => ({
  config_uuid: c.id,
  config_name: c.config_name,
  idp_type: c.idp_type as SsoConfig['idp_type'],
  metadata_url: c.metadata_url,
  has_metadata: c.idp_entity_id !== null,
  idp_entity_id: c.idp_entity_id,
  idp_sso_url: c.idp_sso_url,
  sign_mode: c.sign_mode,
  is_active: c.active,
  tested_at: c.tested_at ? new Date(c.tested_at).toISOString() : null,
  status: statusOf(c),
});

/**
 * SAML single sign-on (issue 13): connectors, the service provider per team, enforcement with its
 * break-glass rule, the SAML request and the assertion consumer service.
 */
export function createSsoService({ db, sealer, consoleUrl, allowLoopbackHttp, limiter, hubSessions }: SsoDeps) {
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

  async function connectorOf(q: Queryable, teamId: string, id: string, lock = false) {
    const c = await repo.connector(q, teamId, id, lock);
    if (!c) throw notFound();
    return c;
  }

  async function metadataFrom(input: { metadata_url?: string | undefined; metadata_xml?: string | undefined }) {
    if (input.metadata_xml) return { xml: input.metadata_xml, url: null };
    const raw = input.metadata_url ?? '';
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new AppError('invalid_input', 'The metadata URL is not a URL.').shows('invalid url');
    }
    const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
    if (url.protocol !== 'https:' && !(allowLoopbackHttp && loopback && url.protocol === 'http:'))
      throw new AppError('invalid_input', 'The metadata URL must use https.').shows('sso.metadata_url_https');
    let response: Response;
    try {
      response = await userUrlFetch(url, {
        method: 'GET',
        headers: { accept: 'application/samlmetadata+xml, application/xml, text/xml' },
      });
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new AppError('sso_metadata_invalid', 'The metadata URL could not be fetched.').shows('sso.metadata_unreachable');
    }
    const xml = await response.text();
    if (!response.ok || xml.length > METADATA_MAX_BYTES)
      throw new AppError('sso_metadata_invalid', `The metadata URL answered ${response.status}.`).shows(
        'sso.metadata_unreachable',
      );
    return { xml, url: url.toString() };
  }

  async function policyOf(teamId: string) {
    const [policy, admins, connectors] = await Promise.all([
      repo.policy(db, teamId),
      repo.teamAdmins(db, teamId),
      repo.connectors(db, teamId),
    ]);
    return {
      enforce_sso: policy.enforce_sso,
      in_effect: policy.enforce_sso && connectors.some((c) => c.active),
      admins: admins.map((a) => ({ email: a.email, name: a.name, scopes: a.scopes, excluded: a.excluded })),
    };
  }

  /** Break-glass: with enforcement on, a super admin who signs in with a password stays excluded. */
  async function assertBreakGlass(tx: Queryable, teamId: string, enforce: boolean, excluded: string[]) {
    if (!enforce) return;
    const admins = await repo.teamAdmins(tx, teamId);
    const ok = admins.some((a) => a.scopes.includes('super_admin') && a.has_password && excluded.includes(a.user_id));
    if (!ok)
      throw new AppError(
        'sso_break_glass',
        'While SSO is enforced, at least one super admin who signs in with a password must stay excluded, so the team can never be locked out.',
      ).shows('sso.break_glass');
  }

  /**
   * Once SSO is required (enforced, with an active connector), the admins it holds keep no session
   * that did not come through SSO: the sign-in now refuses them a password or a code, so a session
   * from one must not go on refreshing until its absolute end. Returns the sessions ended.
   */
  async function endSessionsHeldToSso(tx: Queryable, teamId: string): Promise<string[]> {
    const policy = await repo.policy(tx, teamId);
    if (!policy.enforce_sso || !(await repo.connectors(tx, teamId)).some((c) => c.active)) return [];
    const admins = await repo.teamAdmins(tx, teamId);
    // The break-glass rule of the sign-in check (features/auth/sso.repository.ts), read the same way.
    const breakGlass = !admins.some((a) => a.scopes.includes('super_admin') && a.has_password && a.excluded);
    const held = admins.filter((a) => !a.excluded && !(breakGlass && a.scopes.includes('super_admin')));
    const ended = await repo.endSessionsNotFromSso(
      tx,
      teamId,
      held.map((a) => a.user_id),
    );
    for (const admin of held.filter((a) => ended.some((s) => s.user_id === a.user_id)))
      await usersRepository.recordSecurityEvent(tx, {
        kind: 'session_revoked',
        email: admin.email,
        userId: admin.user_id,
        teamId,
        detail: { reason: 'sso_required' },
      });
    return ended.map((s) => s.id);
  }

  /** After the change committed: the Hub sessions those console sessions opened end too (queued). */
  async function tellHubs(teamId: string, sessionIds: string[]) {
    if (sessionIds.length > 0) await hubSessions.sessionsEnded({ teamId, sessionIds });
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

  /** A non-admin's SSO start: counted with the email step's unknown emails, and logged as that step logs them. */
  async function notAnAdmin(email: string, ip: string) {
    await limiter.unknownEmail(ip);
    await usersRepository.recordSecurityEvent(db, { kind: 'sign_in_failed', email, ip, detail: { reason: 'sso_not_admin' } });
  }

  /** Where the browser goes after the ACS: the sso page with a one-time token or a §8 code. */
  const returnTo = (params: Record<string, string>) => `${base()}/#/sso?${new URLSearchParams(params)}`;

  return {
    async list(caller: Caller) {
      const key = await spKey(caller.team.id, caller.team.name);
      const { entityId, acsUrl } = sp(caller.team.slug);
      const metadata = new SAML({
        issuer: entityId,
        callbackUrl: acsUrl,
        idpCert: 'unused',
        // With the key, node-saml declares AuthnRequestsSigned="true" and our signing certificate, as we sign every request
        // (only the certificate goes into the metadata): an IdP that demands signed requests can verify them.
        privateKey: key.privateKey,
        publicCert: key.certificate,
        wantAssertionsSigned: true,
        identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
      }).generateServiceProviderMetadata(null, key.certificate);
      return {
        configs: (await repo.connectors(db, caller.team.id)).map(view),
        service_provider: { entity_id: entityId, acs_url: acsUrl, certificate: key.certificate, metadata_xml: metadata },
      };
    },

    async create(caller: Caller, input: { config_name: string; idp_type: string; sign_mode?: string | undefined }) {
      return db.transaction(async (tx) => {
        if (await repo.nameTaken(tx, caller.team.id, input.config_name, null))
          throw new AppError('conflict', 'A connector with that name exists.').shows('sso.name_taken');
        // Unless told otherwise, a connector demands the signature its provider makes by default.
        const signMode = input.sign_mode ?? IDP_PRESETS[input.idp_type as IdpType].signMode;
        const id = await repo.create(tx, caller.team.id, input.config_name, input.idp_type, signMode);
        return { code: 'updated' as const, config: view((await repo.connector(tx, caller.team.id, id)) as ConnectorRow) };
      });
    },

    async update(caller: Caller, input: EndpointArgs<typeof ssoConfigUpdateEndpoint>) {
      const current = await connectorOf(db, caller.team.id, input.config_uuid);
      // Fetched before the transaction: no row is locked while a remote server answers.
      const source = input.metadata_xml || input.metadata_url ? await metadataFrom(input) : null;
      let idp: ReturnType<typeof parseIdpMetadata> | null = null;
      if (source) {
        try {
          idp = parseIdpMetadata(source.xml, { postFallback: current.idp_type === 'jumpcloud' });
        } catch (error) {
          if (!(error instanceof MetadataInvalid)) throw error;
          throw new AppError('sso_metadata_invalid', `The metadata cannot be used: ${error.message}.`).shows(
            'sso.metadata_invalid',
            {
              reason: error.message,
            },
          );
        }
      }
      return db.transaction(async (tx) => {
        const config = await connectorOf(tx, caller.team.id, input.config_uuid, true);
        if (input.config_name && input.config_name !== config.config_name) {
          if (await repo.nameTaken(tx, caller.team.id, input.config_name, config.id))
            throw new AppError('conflict', 'A connector with that name exists.').shows('sso.name_taken');
          await repo.rename(tx, config.id, input.config_name);
        }
        if (input.sign_mode) await repo.setSignMode(tx, config.id, input.sign_mode);
        if (idp && source)
          await repo.setIdentityProvider(tx, config.id, {
            xml: source.xml,
            url: source.url,
            entityId: idp.entityId,
            ssoUrl: idp.ssoUrl,
            certificates: idp.certificates,
          });
        return { code: 'updated' as const, config: view((await repo.connector(tx, caller.team.id, config.id)) as ConnectorRow) };
      });
    },

    async setActive(caller: Caller, id: string, active: boolean) {
      const { reply, ended } = await db.transaction(async (tx) => {
        const config = await connectorOf(tx, caller.team.id, id, true);
        if (active && !config.tested_at)
          throw new AppError('sso_not_tested', 'Test the connector successfully before activating it.').shows('sso.test_first');
        await repo.setActive(tx, config.id, active);
        return {
          reply: {
            code: 'updated' as const,
            config: view((await repo.connector(tx, caller.team.id, config.id)) as ConnectorRow),
          },
          // An enforcement left on comes back into effect with an active connector.
          ended: active ? await endSessionsHeldToSso(tx, caller.team.id) : [],
        };
      });
      await tellHubs(caller.team.id, ended);
      return reply;
    },

    async remove(caller: Caller, id: string) {
      await db.transaction(async (tx) => {
        const config = await connectorOf(tx, caller.team.id, id, true);
        await repo.remove(tx, config.id);
      });
      return { code: 'deleted' as const };
    },

    policy: (caller: Caller) => policyOf(caller.team.id),

    async setEnforce(caller: Caller, enforce: boolean) {
      const ended = await db.transaction(async (tx) => {
        await repo.lockPolicy(tx, caller.team.id);
        const policy = await repo.policy(tx, caller.team.id);
        if (enforce && !(await repo.connectors(tx, caller.team.id)).some((c) => c.active && c.tested_at))
          throw new AppError('sso_not_tested', 'SSO can be enforced once a connector has passed its test and is active.').shows(
            'sso.enforce_needs_test',
          );
        await assertBreakGlass(tx, caller.team.id, enforce, policy.excluded_admins);
        await repo.savePolicy(tx, caller.team.id, enforce, policy.excluded_admins);
        return endSessionsHeldToSso(tx, caller.team.id);
      });
      await tellHubs(caller.team.id, ended);
      return policyOf(caller.team.id);
    },

    async excluded(caller: Caller, add: string[], remove: string[]) {
      const ended = await db.transaction(async (tx) => {
        await repo.lockPolicy(tx, caller.team.id);
        const policy = await repo.policy(tx, caller.team.id);
        const admins = await repo.teamAdmins(tx, caller.team.id);
        const idOf = (email: string) => {
          const admin = admins.find((a) => a.email.toLowerCase() === email.toLowerCase());
          if (!admin)
            throw new AppError('admin_not_in_team', `${email} is not an admin of this team.`).shows('sso.not_an_admin', {
              email,
            });
          return admin.user_id;
        };
        const removing = new Set(remove.map(idOf));
        const next = [...new Set([...policy.excluded_admins, ...add.map(idOf)])].filter((id) => !removing.has(id));
        await assertBreakGlass(tx, caller.team.id, policy.enforce_sso, next);
        await repo.savePolicy(tx, caller.team.id, policy.enforce_sso, next);
        // An admin no longer excluded while SSO is required is held to it from now on.
        return endSessionsHeldToSso(tx, caller.team.id);
      });
      await tellHubs(caller.team.id, ended);
      return policyOf(caller.team.id);
    },

    /**
     * /sso/login/saml/request/: sign-in. The answer follows from the connector alone: an admin of its
     * team and anyone else get the same redirect to the identity provider, for the same work, and the
     * ACS refuses a non-admin afterwards (45032), so this call tells no one who administers the team.
     * It sits behind the email step's per-client limit, where a non-admin counts as an unknown email.
     */
    async start(input: { email: string; config_uuid: string; team_slug?: string | undefined }, ip: string) {
      await limiter.checkEmailProbe(ip);
      const config = await repo.connectorById(db, input.config_uuid);
      const team = config?.active ? await repo.team(db, config.team_id) : undefined;
      if (!config || !team || (input.team_slug && input.team_slug !== team.slug))
        throw new AppError('sso_not_found', 'No active SSO connector with that id.', 404).shows('errors.sso_not_found');
      const admin = await repo.teamAdminByEmail(db, team.id, input.email);
      const counted = admin ? Promise.resolve() : notAnAdmin(input.email, ip);
      const made = request(team, config, admin?.email ?? input.email, false, null);
      // Both settle before the answer: no write of this call is left running after it.
      const [count, reply] = await Promise.allSettled([counted, made]);
      if (count.status === 'rejected') throw count.reason;
      if (reply.status === 'rejected') throw reply.reason;
      return reply.value;
    },

    async testStart(caller: Caller, configUuid: string) {
      const config = await connectorOf(db, caller.team.id, configUuid);
      if (config.active)
        throw new AppError(
          'sso_config_already_tested',
          'This connector is tested and active; deactivate it to test it again.',
        ).shows('sso.already_tested');
      return request(caller.team, config, null, true, caller.userId);
    },

    async status(caller: Caller, requestId: string): Promise<SsoTestResult> {
      const row = await repo.request(db, requestId);
      if (!row?.test || row.team_id !== caller.team.id) throw new AppError('not_found', 'No such test.', 404);
      if (!row.result) return { status: 'pending', response_key: null, checks: [], attributes: null, maps_to_admin: null };
      return row.result as unknown as SsoTestResult;
    },

    /** The ACS: the redirect address for the browser, whatever happened (never an exception). */
    async acs(samlResponse: string, ip: string): Promise<string> {
      const passed: CheckName[] = [];
      let facts: ResponseFacts | null = null;
      let requestId: string | null = null;
      let teamId: string | undefined;
      let test = false;
      let idpType: IdpType = 'generic_saml';
      const outcome = async (result: Omit<SsoTestResult, 'attributes'>) => {
        if (!requestId || !test) return;
        await repo.recordOutcome(db, requestId, result.status, {
          ...result,
          attributes: facts ? identityOf(facts, idpType) : null,
        });
      };
      try {
        let xml: string;
        try {
          xml = Buffer.from(samlResponse, 'base64').toString('utf8');
        } catch {
          throw new SamlRefused('xml', 'not base64');
        }
        facts = inspectResponse(xml);
        passed.push('xml', 'structure', 'status', 'signature_algorithm');
        const request = await repo.request(db, facts.inResponseTo);
        if (!request || request.consumed_at || request.expires_at.getTime() <= Date.now())
          throw new SamlRefused('in_response_to', 'the response answers no live request of ours');
        requestId = request.id;
        teamId = request.team_id;
        test = request.test;
        passed.push('in_response_to');
        const config = await repo.connector(db, request.team_id, request.config_id);
        const team = await repo.team(db, request.team_id);
        if (!config?.idp_entity_id || !team) throw new SamlRefused('issuer', 'the connector is gone', '45004');
        idpType = config.idp_type as IdpType;
        const { entityId, acsUrl } = sp(team.slug);
        checkAgainst(facts, {
          idpEntityId: config.idp_entity_id,
          acsUrl,
          spEntityId: entityId,
          requestId: request.id,
          now: Date.now(),
          skewMs: SKEW_MS,
        });
        passed.push('issuer', 'destination', 'recipient');
        const key = await spKey(team.id, team.name);
        const cache: CacheProvider = {
          saveAsync: async () => null,
          getAsync: async (k) => (k === request.id ? new Date().toISOString() : null),
          removeAsync: async () => null,
        };
        let profile: { nameID?: string } | null;
        try {
          ({ profile } = await samlFor(team, config, key, cache, facts).validatePostResponseAsync({
            SAMLResponse: samlResponse,
          }));
        } catch (error) {
          const message = (error as Error).message;
          const check: CheckName = /audience/i.test(message)
            ? 'audience'
            : /expired|not yet valid|NotBefore|NotOnOrAfter/i.test(message)
              ? 'time_window'
              : 'signature';
          throw new SamlRefused(check, message);
        }
        // What the library read is what we read: one assertion, one NameID of text only.
        if (!profile || (profile.nameID ?? null) !== facts.nameId)
          throw new SamlRefused('signature', 'the library read another subject');
        passed.push('signature', 'audience', 'time_window');
        const expires = new Date(Math.max(Date.now() + 3600_000, ...facts.notOnOrAfter.map((v) => Date.parse(v))));
        if (
          !(await repo.consumeRequest(db, request.id)) ||
          !(await repo.useAssertion(db, config.idp_entity_id, facts.assertionId, expires))
        )
          throw new SamlRefused('one_time_use', 'the response or its assertion was used before');
        passed.push('one_time_use');
        const email = emailOf(facts, idpType);
        passed.push('email');
        const admin = await repo.teamAdminByEmail(db, team.id, email);
        if (test) {
          await repo.markTested(db, config.id);
          await outcome({
            status: 'success',
            response_key: null,
            checks: passed.map((name) => ({ name, passed: true })),
            maps_to_admin: Boolean(admin),
          });
          return returnTo({ sso_status: 'success', test: '1', saml_request_id: request.id });
        }
        if (!admin || admin.email.toLowerCase() !== (request.email ?? '').toLowerCase())
          throw new SamlRefused('email', 'the IdP signed in another person than the one who started', '45032');
        const token = await loginTokensRepository.issue(db, 'sso', admin.user_id, team.id);
        return returnTo({ sso_status: 'success', token });
      } catch (error) {
        if (!(error instanceof SamlRefused)) throw error;
        // Which check refused it, for the team's security log (and never the response itself).
        await usersRepository.recordSecurityEvent(db, {
          kind: 'sign_in_failed',
          teamId,
          ip,
          detail: { reason: `sso_${error.check}`, code: error.code, test, message: error.message.slice(0, 300) },
        });
        await outcome({
          status: 'failed',
          response_key: error.code,
          checks: [...passed.map((name) => ({ name, passed: true })), { name: error.check, passed: false }],
          maps_to_admin: null,
        });
        return returnTo({ response_key: error.code, ...(test && requestId ? { test: '1', saml_request_id: requestId } : {}) });
      }
    },
  };
}
export type SsoService = ReturnType<typeof createSsoService>;
