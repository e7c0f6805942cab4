import type { auditSummariesEndpoint, EndpointArgs } from '@latchkey/contracts';
import { AppError, type Db } from '@latchkey/runtime';
import { devicesRepository } from '../devices/index.ts';
import { auditRepository, type SummaryCounts, type SummaryRow } from './audit.repository.ts';

const toSummary = (r: SummaryRow) => ({ ...r, updated_at: r.updated_at.toISOString() });

/** Security audit: the vault summaries the apps report, and the page and detail the super admin reads. */
export function createAuditService(db: Db) {
  return {
    async ingest(teamSlug: string, email: string, input: SummaryCounts) {
      return { summary_id: await auditRepository.upsert(db, teamSlug, email, input) };
    },

    async page(team: string, input: EndpointArgs<typeof auditSummariesEndpoint>) {
      const { rows, total } = await auditRepository.page(db, team, {
        field: input.ordering.field_id,
        desc: input.ordering.desc,
        search: input.search_value,
        limit: input.page_size,
        offset: (input.page - 1) * input.page_size,
      });
      const totals = await auditRepository.totals(db, team);
      const matching = total ?? totals.members;
      return { results: rows.map(toSummary), total: matching, pages: Math.ceil(matching / input.page_size), totals };
    },

    async detail(team: string, summaryId: string) {
      const summary = await auditRepository.find(db, team, summaryId);
      if (!summary) throw new AppError('not_found', 'No such vault summary.', 404).shows('errors.vault_not_found');
      const devices = await devicesRepository.listForMember(db, team, summary.email);
      return {
        summary: toSummary(summary),
        devices: devices.map((d) => ({ ...d, last_seen_at: d.last_seen_at.toISOString() })),
      };
    },
  };
}
