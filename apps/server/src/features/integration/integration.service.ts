import {
  type ActivityCode,
  AUX_SERVICE_FLAGS,
  type AuxService,
  type AuxServiceFlag,
  type Credential,
  type disableAuxServicesEndpoint,
  type EndpointOutput,
  type HostingPreference,
  type HubServer,
  hubUrlProblem,
  SERVICE_STATUS,
} from '@latchkey/contracts';
import { AppError, type Db, type Queryable, randomToken } from '@latchkey/runtime';
import type { Caller } from '../../http/caller.ts';
import { recordEvent } from '../eventlogs/index.ts';
import type { HubClient } from './hub-client.ts';
import { type CredentialRow, integrationRepository as repo } from './integration.repository.ts';
import type { IntegrationLookups } from './integration-lookups.ts';
import { type ServiceStates, statesAfterSetup, toHubServer } from './service-state.ts';

type ToggleReply = EndpointOutput<typeof disableAuxServicesEndpoint>;

const toCredential = (row: CredentialRow): Credential => ({
  credential_id: row.credential_id,
  name: row.name,
  server_url: row.server_url,
  hub_version: row.hub_version,
  created_at: row.created_at,
});

const notFound = () =>
  new AppError('not_found', 'There is no such credential in this team.').shows('errors.credential_not_found');
const authNotSet = () =>
  new AppError('auth_not_set', 'No Hub is set up with this credential. Set up the credential on a Hub first.').shows(
    'errors.credential_not_set_up',
  );

const serviceNames = (flags: readonly AuxServiceFlag[]): AuxService[] => [...new Set(flags.map((f) => AUX_SERVICE_FLAGS[f]))];
const enabledOnHub = (states: ServiceStates): AuxService[] =>
  (Object.keys(states) as AuxService[]).filter((s) => s !== 'integration' && states[s]?.enabled);

/**
 * Hub credentials and the team's auxiliary services. The server's record (`hubs.services`) only
 * changes after the Hub itself has agreed over HTTP, so the two never disagree for long.
 */
export interface IntegrationOptions {
  allowLoopbackHttp: boolean;
  hubClient: HubClient;
  /** Where a Hub calls this server back: PUBLIC_URL, else the address it listens on. */
  selfUrl: () => string;
  /** The team, session and admin lookups the composition root wires in. */
  lookups: IntegrationLookups;
}

export function createIntegrationService(db: Db, options: IntegrationOptions) {
  const { hubClient } = options;
  const record = (q: Queryable, caller: Caller, activity: ActivityCode, target: string, detail: Record<string, string> = {}) =>
    recordEvent(q, { teamId: caller.team.id, actor: caller.email, activity, component: 'integration', target, detail });
  async function connectedHub(caller: Caller, credentialId?: string) {
    const row = credentialId ? await repo.find(db, caller.team.id, credentialId) : await repo.firstConnected(db, caller.team.id);
    if (!row?.server_url || !row.hub_key) throw authNotSet();
    return { ...row, server_url: row.server_url };
  }

  async function applyOnHub(caller: Caller, row: CredentialRow & { server_url: string }, next: ServiceStates) {
    const enabled = enabledOnHub(next);
    const hub = await hubClient.setServices(row, caller.team.slug, enabled);
    const changes: ServiceStates = {};
    for (const s of Object.keys(next) as AuxService[]) {
      const state = next[s];
      if (state) changes[s] = state;
    }
    await repo.mergeServices(db, row.id, changes, hub.version);
    const saved = await repo.find(db, caller.team.id, row.credential_id);
    return toHubServer(saved ?? row, true);
  }

  return {
    /** What the guards read: the first set-up Hub's recorded state of one service. */
    async serviceState(caller: Caller, service: AuxService) {
      const row = await repo.firstConnected(db, caller.team.id);
      const state = row?.services[service];
      return {
        service,
        enabled: Boolean(state?.enabled),
        status: state?.status ?? SERVICE_STATUS.disabled,
        hub_version: row?.hub_version ?? null,
      };
    },

    async list(caller: Caller) {
      return { credentials: (await repo.list(db, caller.team.id)).map(toCredential) };
    },

    /** A credential names one connection to a Hub; it holds no secret (the server's key signs for it). */
    async add(caller: Caller, name: string) {
      return db.transaction(async (tx) => {
        const row = await repo.insert(tx, caller.team.id, { credentialId: `hub-${randomToken(9)}`, name });
        await record(tx, caller, 'integration.credential_added', name);
        return toCredential(row);
      });
    },

    async rename(caller: Caller, credentialId: string, name: string) {
      return db.transaction(async (tx) => {
        const row = await repo.rename(tx, caller.team.id, credentialId, name);
        if (!row) throw notFound();
        await record(tx, caller, 'integration.credential_renamed', name);
        return toCredential(row);
      });
    },

    async remove(caller: Caller, credentialId: string) {
      return db.transaction(async (tx) => {
        if (!(await repo.remove(tx, caller.team.id, credentialId))) throw notFound();
        await record(tx, caller, 'integration.credential_deleted', credentialId);
        return { code: 'credential_deleted' as const };
      });
    },

    /**
     * Connects the Hub at `serverUrl` (spec §5: https): the server registers the credential there
     * in a call signed with its key — with the operator's setup key for a team new to that Hub —
     * keeps the public key the Hub answers with, then asks what the Hub runs.
     */
    async setup(caller: Caller, credentialId: string, serverUrl: string, setupKey?: string): Promise<HubServer> {
      const problem = hubUrlProblem(serverUrl, { allowLoopbackHttp: options.allowLoopbackHttp });
      if (problem) {
        throw new AppError('invalid_input', 'The Hub address is not valid.', 400, [
          { path: 'latchkey_hosted_hub.server_url', message: problem },
        ]);
      }
      const row = await repo.find(db, caller.team.id, credentialId);
      if (!row) throw notFound();
      const url = new URL(serverUrl.trim()).origin;
      const target = { credential_id: row.credential_id, server_url: url };
      const { hub_key } = await hubClient.register(target, caller.team.slug, { serverUrl: options.selfUrl(), setupKey });
      const hub = await hubClient.verify(target, caller.team.slug);
      const services = statesAfterSetup(hub);
      await db.transaction(async (tx) => {
        await repo.setUp(tx, row.id, { serverUrl: url, hubKey: hub_key, hubVersion: hub.version, services });
        await record(tx, caller, 'integration.hub_set_up', url, { credential_id: row.credential_id });
      });
      return toHubServer({ ...row, server_url: url, hub_version: hub.version, services }, true);
    },

    /** A team with a connected Hub hosts its services itself: "not decided" is no longer an answer. */
    async hosting(caller: Caller, hosting: HostingPreference | undefined) {
      if (hosting === 'not_set' && (await repo.firstConnected(db, caller.team.id))) {
        throw new AppError('not_allowed', 'A Hub is connected: the services are self-hosted.').shows(
          'errors.hosting_hub_connected',
        );
      }
      if (hosting) await options.lookups.setHosting(db, caller.team.id, hosting);
      return { hosting: await options.lookups.hosting(db, caller.team.id), product: 'latchkey_hosted_hub' as const };
    },

    async enable(caller: Caller, credentialId: string, flags: readonly AuxServiceFlag[]): Promise<ToggleReply> {
      const row = await connectedHub(caller, credentialId);
      const next: ServiceStates = { ...row.services };
      for (const s of serviceNames(flags)) next[s] = { enabled: true, status: SERVICE_STATUS.active };
      const server = await applyOnHub(caller, row, next);
      await record(db, caller, 'integration.services_enabled', serviceNames(flags).join(','));
      return { code: 'services_updated', server };
    },

    /** Switching integration off switches every service off: nothing runs without the connection. */
    async disable(caller: Caller, flags: readonly AuxServiceFlag[]): Promise<ToggleReply> {
      const row = await connectedHub(caller);
      const names = serviceNames(flags);
      const off = names.includes('integration') ? (Object.keys(row.services) as AuxService[]) : names;
      const next: ServiceStates = { ...row.services };
      for (const s of off) next[s] = { enabled: false, status: SERVICE_STATUS.disabled };
      const server = await applyOnHub(caller, row, next);
      await record(db, caller, 'integration.services_disabled', off.join(','));
      return { code: 'services_updated', server };
    },
  };
}
