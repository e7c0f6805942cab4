import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A real OpenLDAP server (Debian's `slapd`) for the directory-sync tests: started as a child on free
 * local ports with its own configuration and data directory, loaded with `slapadd` before it starts
 * (fast, even for 10,000 entries), serving ldap:// (with StartTLS) and ldaps:// under a certificate
 * signed by a CA the test makes. A server-wide size limit makes paged results (RFC 2696) necessary,
 * as Active Directory's MaxPageSize (1,000) does.
 *
 * Active Directory's shape is played with Debian's `msuser.schema` (AD's `user` and `group` classes,
 * `userAccountControl`, `objectGUID`, `userPrincipalName`) plus an auxiliary class carrying
 * `sAMAccountName`, which AD's `securityPrincipal` carries and msuser.schema leaves out.
 */

export const SLAPD = '/usr/sbin/slapd';
export const slapdAvailable = () => existsSync(SLAPD) && existsSync('/usr/sbin/slapadd');

export const BASE_DN = 'dc=example,dc=test';
export const ROOT_DN = `cn=admin,${BASE_DN}`;
export const ROOT_PASSWORD = 'root-secret';
/** The account a sync binds as: an ordinary entry, so the size limit applies to it (never to the root DN). */
export const SYNC_DN = `cn=latchkey-sync,${BASE_DN}`;
export const SYNC_PASSWORD = 'sync-secret-ÅÖ';

export interface TestDirectory {
  /** ldap://127.0.0.1:port (StartTLS offered). */
  url: string;
  /** ldaps://127.0.0.1:port. */
  ldapsUrl: string;
  /** The CA that signed the server's certificate (PEM), and one that did not. */
  caPem: string;
  otherCaPem: string;
  stop(): Promise<void>;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

function openssl(args: string[], cwd: string) {
  execFileSync('openssl', args, { cwd, stdio: 'ignore' });
}

/** A CA, and a server certificate for 127.0.0.1 and localhost it signs. */
function makeCertificates(dir: string) {
  openssl(
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
      '-days',
      '2',
      '-subj',
      '/CN=Latchkey test directory CA',
    ],
    dir,
  );
  openssl(
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'other-ca.key',
      '-out',
      'other-ca.pem',
      '-days',
      '2',
      '-subj',
      '/CN=Some other CA',
    ],
    dir,
  );
  openssl(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1'], dir);
  writeFileSync(join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  openssl(
    [
      'x509',
      '-req',
      '-in',
      'server.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      'server.pem',
      '-days',
      '2',
      '-extfile',
      'san.ext',
    ],
    dir,
  );
}

function config(dir: string, sizeLimit: number) {
  writeFileSync(
    join(dir, 'ad-extra.schema'),
    "objectclass ( 1.3.6.1.4.1.64999.1.1 NAME 'securityPrincipal' AUXILIARY\n MAY ( sAMAccountName ) )\n",
  );
  const schema = ['core', 'cosine', 'inetorgperson', 'nis', 'msuser'].map((name) => `include /etc/ldap/schema/${name}.schema`);
  return [
    ...schema,
    `include ${join(dir, 'ad-extra.schema')}`,
    'modulepath /usr/lib/ldap',
    'moduleload back_mdb',
    `pidfile ${join(dir, 'slapd.pid')}`,
    `TLSCACertificateFile ${join(dir, 'ca.pem')}`,
    `TLSCertificateFile ${join(dir, 'server.pem')}`,
    `TLSCertificateKeyFile ${join(dir, 'server.key')}`,
    `sizelimit size.soft=${sizeLimit} size.hard=${sizeLimit} size.prtotal=unlimited`,
    'database mdb',
    `suffix "${BASE_DN}"`,
    `rootdn "${ROOT_DN}"`,
    `rootpw ${ROOT_PASSWORD}`,
    `directory ${join(dir, 'data')}`,
    'maxsize 1073741824',
    'index objectClass,entryUUID eq',
    'access to attrs=userPassword by anonymous auth by * none',
    'access to * by * read',
    '',
  ].join('\n');
}

const reachable = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** Starts slapd loaded with `ldif` (the base entry and the sync account are added before it). */
export async function startSlapd(ldif: string, options: { sizeLimit?: number } = {}): Promise<TestDirectory> {
  const dir = mkdtempSync(join(tmpdir(), 'latchkey-slapd-'));
  mkdirSync(join(dir, 'data'));
  makeCertificates(dir);
  writeFileSync(join(dir, 'slapd.conf'), config(dir, options.sizeLimit ?? 500));
  writeFileSync(join(dir, 'data.ldif'), baseEntries() + ldif);
  execFileSync('/usr/sbin/slapadd', ['-q', '-f', join(dir, 'slapd.conf'), '-l', join(dir, 'data.ldif')], { stdio: 'pipe' });
  const [plain, secure] = [await freePort(), await freePort()];
  const child: ChildProcess = spawn(
    SLAPD,
    ['-f', join(dir, 'slapd.conf'), '-h', `ldap://127.0.0.1:${plain}/ ldaps://127.0.0.1:${secure}/`, '-d', '0'],
    { stdio: 'ignore' },
  );
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const deadline = Date.now() + 15_000;
  while (!(await reachable(plain)) || !(await reachable(secure))) {
    if (exited) throw new Error('slapd exited at start');
    if (Date.now() > deadline) throw new Error('slapd did not start within 15 s');
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `ldap://127.0.0.1:${plain}`,
    ldapsUrl: `ldaps://127.0.0.1:${secure}`,
    caPem: readFileSync(join(dir, 'ca.pem'), 'utf8'),
    otherCaPem: readFileSync(join(dir, 'other-ca.pem'), 'utf8'),
    async stop() {
      if (!exited) {
        const gone = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await gone;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function baseEntries() {
  return ldifEntries([
    { dn: BASE_DN, objectClass: ['dcObject', 'organization'], o: 'Example', dc: 'example' },
    { dn: SYNC_DN, objectClass: ['person'], cn: 'latchkey-sync', sn: 'sync', userPassword: SYNC_PASSWORD },
  ]);
}

export type LdifEntry = { dn: string } & Record<string, string | number | Buffer | (string | number | Buffer)[]>;

/** LDIF (RFC 2849): values that are not safe strings (non-ASCII, binary, leading space or colon) go base64. */
export function ldifEntries(entries: LdifEntry[]): string {
  const line = (name: string, value: string | number | Buffer) => {
    if (Buffer.isBuffer(value)) return `${name}:: ${value.toString('base64')}`;
    const text = String(value);
    return /^[!-9;=>-~][ -~]*$/.test(text) && !text.endsWith(' ')
      ? `${name}: ${text}`
      : `${name}:: ${Buffer.from(text, 'utf8').toString('base64')}`;
  };
  return entries
    .map(({ dn, ...attributes }) =>
      [
        line('dn', dn),
        ...Object.entries(attributes).flatMap(([name, value]) =>
          (Array.isArray(value) ? value : [value]).map((v) => line(name, v)),
        ),
      ].join('\n'),
    )
    .map((entry) => `${entry}\n\n`)
    .join('');
}
