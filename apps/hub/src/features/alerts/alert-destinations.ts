import { randomUUID } from 'node:crypto';
import type { AlertDestination, AlertDestinationInput } from '@latchkey/contracts';
import { AppError, checkedAddress, OutboundError, type Sealer } from '@latchkey/runtime';
import { hubOutboundPolicy } from '../../platform/outbound.ts';

/** Per destination id: its secret parts (a webhook's signing secret; a Slack or Teams address, itself the credential). */
export type DestinationSecrets = Record<string, { url?: string; signing_secret?: string }>;

type Input = AlertDestinationInput;
const href = (value: string) => (URL.canParse(value) ? new URL(value).href : value);
const invalid = (path: string, message: string, text: string) =>
  new AppError('invalid_input', text, 400, [{ path, message }]).shows(message);

/** Refused before it is saved: an address the Hub's outbound guard would not call (private, loopback in production…). */
async function guarded(url: string, path: string) {
  try {
    await checkedAddress(hubOutboundPolicy(), new URL(url));
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    // A name that does not resolve from here yet is checked again on every send.
    if (error.kind !== 'unresolvable') throw invalid(path, 'alerts.form.url_refused', `The address is refused: ${error.message}`);
  }
}

/**
 * The destinations a rule saves from the console's input and what it held before: each keeps its
 * id; a secret left empty keeps the stored one only while its address stays the same (the SIEM
 * secret rule: a stored secret never goes to an address it did not go to before).
 */
export async function resolveDestinations(
  input: readonly Input[],
  before: { destinations: AlertDestination[]; secrets: DestinationSecrets } = { destinations: [], secrets: {} },
): Promise<{ destinations: AlertDestination[]; secrets: DestinationSecrets }> {
  const destinations: AlertDestination[] = [];
  const secrets: DestinationSecrets = {};
  for (const [i, d] of input.entries()) {
    const old = before.destinations.find((b) => b.id === d.id && b.kind === d.kind);
    const id = old?.id ?? randomUUID();
    const kept = old ? (before.secrets[id] ?? {}) : {};
    const path = `destinations.${i}`;
    switch (d.kind) {
      case 'email':
        destinations.push({ id, kind: 'email', recipients: [...new Set(d.recipients.map((r) => r.toLowerCase()))] });
        break;
      case 'siem':
        destinations.push({ id, kind: 'siem' });
        break;
      case 'webhook': {
        const url = href(d.url);
        await guarded(url, `${path}.url`);
        let secret = d.signing_secret ?? '';
        if (!secret) {
          if (!kept.signing_secret) throw invalid(`${path}.signing_secret`, 'this field is required', 'this field is required');
          if (old?.kind !== 'webhook' || old.url !== url)
            throw invalid(
              `${path}.signing_secret`,
              'alerts.form.secret_again',
              'The address changed: enter the signing secret again (a stored secret is never sent to a new address).',
            );
          secret = kept.signing_secret;
        }
        destinations.push({ id, kind: 'webhook', url, has_secret: true });
        secrets[id] = { signing_secret: secret };
        break;
      }
      case 'slack':
      case 'teams': {
        // The incoming-webhook address is the credential: kept sealed, shown by its host alone.
        const url = d.url ? href(d.url) : kept.url;
        if (!url) throw invalid(`${path}.url`, 'this field is required', 'this field is required');
        await guarded(url, `${path}.url`);
        destinations.push({ id, kind: d.kind, host: new URL(url).host, has_secret: true });
        secrets[id] = { url };
        break;
      }
    }
  }
  return { destinations, secrets };
}

export const sealSecrets = (sealer: Sealer, secrets: DestinationSecrets) => sealer.seal(JSON.stringify(secrets));
export const openSecrets = (sealer: Sealer, sealed: string): DestinationSecrets =>
  JSON.parse(sealer.open(sealed)) as DestinationSecrets;
