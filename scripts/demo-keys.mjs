// The demo's trust between its server and its Hub (docs/security.md): `npm start`, the e2e run
// and the bench play the operator of both, so they make each program's Ed25519 key where the
// program itself would keep it (<DATA_DIR>/keys/, mode 0600) and pin each public half on the
// other side (DEMO_SERVER_KEY for the Hub, DEMO_HUB_KEY for the server). A real deployment
// registers through the console with a setup key instead (`npm run hub-cli -- setup-key`).
import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const KEY_FILE = 'hub-signing-ed25519.pem';

/** The key file in a program's data directory, created once; its public half as JWK JSON. */
function ensureKey(dataDir) {
  const dir = join(dataDir, 'keys');
  const file = join(dir, KEY_FILE);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    const pem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' });
    writeFileSync(file, `${pem}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if (error.code !== 'EEXIST') throw error;
  }
  const { x } = createPublicKey(createPrivateKey(readFileSync(file, 'utf8'))).export({ format: 'jwk' });
  return { file, jwk: JSON.stringify({ kty: 'OKP', crv: 'Ed25519', x }) };
}

/** Both keys of a demo pair: the server's and the Hub's. */
export function demoTrust(serverDataDir, hubDataDir) {
  const server = ensureKey(serverDataDir);
  const hub = ensureKey(hubDataDir);
  return { serverKey: server.jwk, serverKeyFile: server.file, hubKey: hub.jwk, hubKeyFile: hub.file };
}
