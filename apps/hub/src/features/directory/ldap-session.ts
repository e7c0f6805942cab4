import { isIP } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import type { DirectoryError, DirectorySecurity } from '@latchkey/contracts';
import { checkedAddress, OutboundError, type OutboundPolicy } from '@latchkey/runtime';
import {
  Client,
  ConfidentialityRequiredError,
  InvalidCredentialsError,
  NoSuchObjectError,
  StrongAuthRequiredError,
} from 'ldapts';

/** A directory read failed, for a reason the console can put in words (`directory.error.<code>`). */
export class DirectoryFailure extends Error {
  constructor(
    readonly code: DirectoryError,
    message: string,
  ) {
    super(message);
  }
}

export interface LdapTarget {
  url: string;
  security: DirectorySecurity;
  /** PEM of the CA to trust; empty: Node's default trust store. */
  caPem: string;
  bindDn: string;
  bindPassword: string;
}

const TLS_TRUST_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** The words for what went wrong; the bind password never appears in them. */
export function directoryFailure(error: unknown): DirectoryFailure {
  if (error instanceof DirectoryFailure) return error;
  if (error instanceof OutboundError)
    return new DirectoryFailure(error.kind === 'refused' ? 'address_refused' : 'unreachable', error.message);
  if (error instanceof InvalidCredentialsError) return new DirectoryFailure('bind_refused', 'bind refused: invalid credentials');
  if (error instanceof NoSuchObjectError) return new DirectoryFailure('base_dn_not_found', 'base DN not found');
  if (error instanceof ConfidentialityRequiredError || error instanceof StrongAuthRequiredError)
    return new DirectoryFailure('tls_required', 'the directory requires TLS before a bind');
  const code = (error as { code?: string }).code ?? '';
  const message = (error as Error).message ?? String(error);
  if (TLS_TRUST_CODES.has(code)) return new DirectoryFailure('certificate_not_trusted', `certificate not trusted (${code})`);
  if (['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET', 'EPIPE'].includes(code))
    return new DirectoryFailure('unreachable', `the directory is unreachable (${code})`);
  if (/timeout/i.test(message)) return new DirectoryFailure('timeout', 'the directory did not answer in time');
  if (/filter/i.test(message)) return new DirectoryFailure('filter_invalid', `the filter is not valid LDAP: ${message}`);
  return new DirectoryFailure('failed', message);
}

/**
 * A bound LDAP client: the address checked by the Hub's outbound policy (resolved once, the
 * connection made to the checked address, so a name cannot be re-pointed between check and
 * connect), TLS verified against the given CA and the name in the URL, StartTLS before the bind.
 */
export async function openLdap(target: LdapTarget, policy: OutboundPolicy): Promise<Client> {
  const url = new URL(target.url);
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port) || (url.protocol === 'ldaps:' ? 636 : 389);
  let client: Client | undefined;
  try {
    const { address } = await checkedAddress(policy, url);
    const tls: ConnectionOptions = {
      ...(isIP(hostname) ? { host: hostname } : { servername: hostname }),
      ...(target.caPem ? { ca: target.caPem } : {}),
      rejectUnauthorized: true,
      minVersion: 'TLSv1.2',
    };
    const host = address.includes(':') ? `[${address}]` : address;
    client = new Client({
      url: `${url.protocol}//${host}:${port}`,
      // Given for ldap:// too, ldapts would speak TLS at once and a StartTLS server resets the connection.
      ...(url.protocol === 'ldaps:' ? { tlsOptions: tls } : {}),
      connectTimeout: policy.timeoutMs,
      timeout: Math.max(policy.timeoutMs, 30_000),
    });
    if (target.security === 'starttls') await client.startTLS({ ...tls });
    await client.bind(target.bindDn, target.bindPassword);
    return client;
  } catch (error) {
    await client?.unbind().catch(() => {});
    throw directoryFailure(error);
  }
}
