import { type EndpointArgs, IDP_PRESETS, type IdpType, type SsoConfig, type ssoConfigUpdateEndpoint } from '@latchkey/contracts';
import { AppError, type Queryable } from '@latchkey/runtime';
import { SAML } from '@node-saml/node-saml';
import type { Caller } from '../../http/caller.ts';
import { userUrlFetch } from '../../platform/outbound.ts';
import { MetadataInvalid, parseIdpMetadata } from './metadata.ts';
import { type ConnectorRow, ssoRepository as repo } from './sso.repository.ts';
import { endSessionsHeldToSso, tellHubs } from './sso-enforcement.ts';
import { METADATA_MAX_BYTES, type ServiceProvider, type SsoDeps } from './sso-service-provider.ts';

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

/** The team's connector, or 404. */
export async function connectorOf(q: Queryable, teamId: string, id: string, lock = false) {
  const c = await repo.connector(q, teamId, id, lock);
  if (!c) throw notFound();
  return c;
}

/** The team's SSO connectors: the list with the service provider's metadata, create, update, activate, remove. */
export function createSsoConnectors(
  { db, allowLoopbackHttp, hubSessions }: Pick<SsoDeps, 'db' | 'allowLoopbackHttp' | 'hubSessions'>,
  { sp, spKey }: ServiceProvider,
) {
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
      await tellHubs(hubSessions, caller.team.id, ended);
      return reply;
    },

    async remove(caller: Caller, id: string) {
      await db.transaction(async (tx) => {
        const config = await connectorOf(tx, caller.team.id, id, true);
        await repo.remove(tx, config.id);
      });
      return { code: 'deleted' as const };
    },
  };
}
