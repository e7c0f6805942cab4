import type { Endpoint } from '@latchkey/contracts';
import { type Db, hashToken, safeEqual, unauthorized } from '@latchkey/runtime';
import type { FastifyRequest } from 'fastify';
import { devicesRepository } from './devices.repository.ts';

/** The member device behind an ingestion call. */
export interface DeviceCaller {
  deviceId: string;
  email: string;
  teamSlug: string;
  hasKey: boolean;
}

export type DeviceGuard = (request: FastifyRequest, endpoint: Endpoint) => Promise<DeviceCaller | null>;

const invalid = () => unauthorized('The device credential is not valid.');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Authenticates an ingestion call by its device credential, `Bearer <device_id>.<secret>`:
 * the id finds the device, the secret must hash to what was stored at registration, and a
 * revoked device, or one of a team no longer registered here, is refused. The team and member come
 * from the device, never from the body.
 */
export function createDeviceGuard(db: Db): DeviceGuard {
  return async (request, endpoint) => {
    if (endpoint.auth === 'public') return null;
    if (endpoint.auth !== 'device') throw unauthorized();
    const header = request.headers.authorization;
    if (!header?.startsWith('Bearer ')) throw unauthorized('A device credential is required.');
    const [id, secret] = header.slice(7).split('.', 2);
    if (!id || !secret || !UUID.test(id)) throw invalid();
    const device = await devicesRepository.findServed(db, id);
    if (!device || device.revoked_at || !safeEqual(device.secret_hash, hashToken(secret))) throw invalid();
    await devicesRepository.touch(db, id);
    return { deviceId: device.id, email: device.email, teamSlug: device.team_slug, hasKey: device.public_key !== null };
  };
}

export function requireDevice(caller: DeviceCaller | null): DeviceCaller {
  if (!caller) throw unauthorized();
  return caller;
}
