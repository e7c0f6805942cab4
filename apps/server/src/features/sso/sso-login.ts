import type { IdpType, SsoTestResult } from '@latchkey/contracts';
import { AppError } from '@latchkey/runtime';
import type { CacheProvider } from '@node-saml/node-saml';
import type { Caller } from '../../http/caller.ts';
import { loginTokensRepository } from '../auth/index.ts';
import { recordSecurityEvent } from '../eventlogs/index.ts';
import {
  type CheckName,
  checkAgainst,
  emailOf,
  identityOf,
  inspectResponse,
  type ResponseFacts,
  SamlRefused,
} from './saml-response.ts';
import { ssoRepository as repo } from './sso.repository.ts';
import { connectorOf } from './sso-connectors.ts';
import { type ServiceProvider, SKEW_MS, type SsoDeps } from './sso-service-provider.ts';

/** Signing in through SSO: the start, the connector test, its status, and the assertion consumer service. */
export function createSsoLogin(
  { db, limiter }: Pick<SsoDeps, 'db' | 'limiter'>,
  { sp, spKey, samlFor, request, returnTo }: ServiceProvider,
) {
  /** A non-admin's SSO start: counted with the email step's unknown emails, and logged as that step logs them. */
  async function notAnAdmin(email: string, ip: string) {
    await limiter.unknownEmail(ip);
    await recordSecurityEvent(db, { kind: 'sign_in_failed', email, ip, detail: { reason: 'sso_not_admin' } });
  }

  return {
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
        await recordSecurityEvent(db, {
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
