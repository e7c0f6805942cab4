import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { followParent } from '@latchkey/runtime';
import { selfSignedRsa } from '../platform/self-signed.ts';
import { startTestIdp } from './saml-idp.ts';

/**
 * The demo identity provider `npm start` runs beside the console (development only: it is test
 * code, run with tsx from a checkout with dev dependencies, never part of a production build). It
 * signs in whichever Alpine Ski House admin the reviewer picks, without a password. Metadata at
 * http://127.0.0.1:<DEMO_IDP_PORT>/metadata, which the console's SSRF guard allows outside production
 * (loopback http, as in the tests).
 */
const port = Number(process.env.DEMO_IDP_PORT ?? 8082);
// Its key is kept with the demo's data, so a connector set up against it still verifies after a restart.
const keyFile = process.env.DEMO_IDP_KEY_FILE ?? 'data/demo-idp/key.json';
if (!existsSync(keyFile)) {
  mkdirSync(dirname(keyFile), { recursive: true });
  writeFileSync(keyFile, JSON.stringify(await selfSignedRsa('Latchkey demo IdP')), { mode: 0o600 });
}
const key = JSON.parse(readFileSync(keyFile, 'utf8')) as { privateKeyPem: string; certificatePem: string };
const idp = await startTestIdp({
  port,
  key,
  people: [
    { email: 'felix@alpine.example', name: 'Felix Braun' },
    { email: 'gus@alpine.example', name: 'Gus Keller' },
    { email: 'fiona@alpine.example', name: 'Fiona Walsh' },
  ],
});
console.info(`Demo identity provider at ${idp.url} (metadata ${idp.url}/metadata)`);
const stop = () => void idp.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
followParent();
