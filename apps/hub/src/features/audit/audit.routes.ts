import { auditSummariesEndpoint, auditSummaryEndpoint, vaultSummaryIngestEndpoint } from '@latchkey/contracts';
import { AppError, type Db, registerEndpoint } from '@latchkey/runtime';
import type { FastifyInstance } from 'fastify';
import { type HubGuard, requireHubCaller } from '../../http/guard.ts';
import { type DeviceGuard, requireDevice } from '../devices/device-guard.ts';
import { devicesRepository } from '../devices/devices.repository.ts';
import { auditRepository, type SummaryRow } from './audit.repository.ts';

const toSummary = (r: SummaryRow) => ({ ...r, updated_at: r.updated_at.toISOString() });

/** Security audit: the apps report vault health; the team's super admin reads it. */
export function auditRoutes(app: FastifyInstance, guard: HubGuard, deviceGuard: DeviceGuard, db: Db) {
  registerEndpoint(app, vaultSummaryIngestEndpoint, deviceGuard, async ({ input, ctx }) => {
    const device = requireDevice(ctx);
    return { summary_id: await auditRepository.upsert(db, device.teamSlug, device.email, input) };
  });

  registerEndpoint(app, auditSummariesEndpoint, guard, async ({ input, ctx }) => {
    const team = requireHubCaller(ctx).teamSlug;
    const { rows, total } = await auditRepository.page(db, team, {
      field: input.ordering.field_id,
      desc: input.ordering.desc,
      search: input.search_value,
      limit: input.page_size,
      offset: (input.page - 1) * input.page_size,
    });
    const totals = await auditRepository.totals(db, team);
    const matching = total ?? totals.members;
    return {
      results: rows.map(toSummary),
      total: matching,
      pages: Math.ceil(matching / input.page_size),
      totals,
    };
  });

  registerEndpoint(app, auditSummaryEndpoint, guard, async ({ input, ctx }) => {
    const team = requireHubCaller(ctx).teamSlug;
    const summary = await auditRepository.find(db, team, input.summary_id);
    if (!summary) throw new AppError('not_found', 'No such vault summary.', 404).shows('errors.vault_not_found');
    const devices = await devicesRepository.listForMember(db, team, summary.email);
    return {
      summary: toSummary(summary),
      devices: devices.map((d) => ({ ...d, last_seen_at: d.last_seen_at.toISOString() })),
    };
  });
}
