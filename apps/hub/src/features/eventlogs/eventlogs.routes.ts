import {
  auditLogsConfigurationEndpoint,
  auditLogsConfigurationFetchEndpoint,
  auditLogsConfigurationUpdateEndpoint,
  auditLogsExportEndpoint,
  auditLogsFetchEndpoint,
  auditLogsFiltersFetchEndpoint,
  auditLogsPullTokenEndpoint,
  auditLogsVerifyEndpoint,
  eventsIngestEndpoint,
  eventsPullEndpoint,
  hubEventsFeedEndpoint,
} from '@latchkey/contracts';
import type { Router } from '@latchkey/runtime';
import type { FastifyRequest } from 'fastify';
import { type HubGuard, requireHubCaller } from '../../http/caller.ts';
import type { HubApprovalGate } from '../../platform/approval-gate.ts';
import { type DeviceGuard, requireDevice } from '../devices/index.ts';
import type { EventsService } from './eventlogs.service.ts';

/**
 * The event log's calls. `gated` refuses a team whose event-logs service is off (the log
 * itself); `guard` alone serves the settings, reachable while it is off (spec §2); the apps'
 * events come with a device credential, the licence server's with its signature.
 */
export function eventlogsRoutes(
  router: Router,
  o: {
    guard: HubGuard;
    gated: HubGuard;
    deviceGuard: DeviceGuard;
    /** Checks a call is signed by the team's licence server (the integration feature's). */
    verifyServerCall: (request: FastifyRequest, path: string, teamSlug: string) => Promise<unknown>;
    /** Refuses a team whose event-logs service is off (the integration feature's gate). */
    requireService: (teamSlug: string) => Promise<void>;
    events: EventsService;
    /** Four-eyes approval of the settings that weaken the log (asked at the licence server). */
    approvalGate: HubApprovalGate;
  },
) {
  const { guard, gated, deviceGuard, events } = o;
  router.handle(eventsIngestEndpoint, deviceGuard, async ({ input, ctx }) =>
    events.ingestFromDevice(requireDevice(ctx), input.events),
  );
  router.handle(hubEventsFeedEndpoint, guard, async ({ input, request }) => {
    await o.verifyServerCall(request, hubEventsFeedEndpoint.path, input.team_slug);
    return events.ingestFromServer(input.team_slug, input.events);
  });

  // ── the log ──
  router.handle(auditLogsFetchEndpoint, gated, async ({ input, ctx }) => events.page(requireHubCaller(ctx).teamSlug, input));
  router.handle(auditLogsFiltersFetchEndpoint, gated, async ({ input, ctx }) =>
    events.filterOptions(requireHubCaller(ctx).teamSlug, input.page_size),
  );
  router.handle(auditLogsVerifyEndpoint, gated, async ({ input, ctx }) => {
    const caller = requireHubCaller(ctx);
    return events.verify(caller.teamSlug, input, caller.email);
  });
  router.handle(auditLogsExportEndpoint, gated, async ({ input, ctx, reply }) => {
    const team = requireHubCaller(ctx).teamSlug;
    const total = await events.exportCount(team, input.filters);
    // Streamed as it is read (keyset batches), so an export of millions of rows never sits in memory.
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      ...corsHeaders(reply),
      'content-type': input.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson',
      'content-disposition': `attachment; filename="events-${team}.${input.format === 'csv' ? 'csv' : 'ndjson'}"`,
      'x-total-count': String(total),
      'x-chain-algorithm': 'sha256; latchkey-event-v1',
      'cache-control': 'no-store',
      'access-control-expose-headers': 'x-total-count, x-chain-algorithm, content-disposition, x-request-id',
    });
    const write = (chunk: string) =>
      new Promise<void>((resolve, reject) => {
        if (raw.destroyed) return reject(new Error('client went away'));
        if (raw.write(chunk)) resolve();
        else raw.once('drain', resolve);
      });
    try {
      await events.export(team, input.format, input.filters, write);
    } finally {
      raw.end();
    }
    return undefined;
  });

  // ── the pull API: its own read-only token per team ──
  router.handle(eventsPullEndpoint, guard, async ({ input, request }) => {
    const team = await events.pullCaller(request.headers.authorization);
    await o.requireService(team);
    return events.pull(team, input);
  });

  // ── settings (reachable while the service is off) ──
  router.handle(auditLogsPullTokenEndpoint, guard, async ({ input, ctx }) => {
    const caller = requireHubCaller(ctx);
    // A new token opens the whole log to whoever holds it; revoking one only closes (never held up).
    if (input.action === 'create') {
      await o.approvalGate(caller, {
        action: 'siem.pull_token',
        call: 'auditLogsPullToken',
        input,
        summary: 'Create a token for the event pull API',
      });
    }
    return events.pullToken(caller.teamSlug, caller.email, input.action);
  });
  router.handle(auditLogsConfigurationFetchEndpoint, guard, async ({ ctx }) => events.config(requireHubCaller(ctx).teamSlug));
  router.handle(auditLogsConfigurationUpdateEndpoint, guard, async ({ input, ctx }) => {
    const caller = requireHubCaller(ctx);
    const current = await events.config(caller.teamSlug);
    // Only a shorter retention deletes events sooner; a Hub not self-hosted refuses it anyway (unchanged answer).
    const before = current.delete_after_days;
    if (current.self_hosted && (before === null || input.delete_after_days < before)) {
      await o.approvalGate(caller, {
        action: 'eventlogs.retention_shortened',
        call: 'auditLogsConfigurationUpdate',
        input,
        summary: `Shorten the event log's retention to ${input.delete_after_days} days`,
        changes: [{ key: 'delete_after_days', kind: 'changed', before, after: input.delete_after_days }],
      });
    }
    return events.setRetention(caller.teamSlug, input.delete_after_days);
  });
  router.handle(auditLogsConfigurationEndpoint, guard, async ({ input, ctx }) => {
    const caller = requireHubCaller(ctx);
    if (input.action === 'disable') {
      await o.approvalGate(caller, {
        action: 'siem.off',
        call: 'auditLogsConfiguration',
        input,
        summary: 'Switch the SIEM export off',
      });
    }
    return events.setSiemEnabled(caller.teamSlug, caller.email, input.action === 'enable');
  });
}

/** A hijacked reply skips Fastify's hooks: the CORS headers the plugin set so far go out by hand. */
function corsHeaders(reply: { getHeaders(): Record<string, unknown> }): Record<string, string> {
  return Object.fromEntries(
    Object.entries(reply.getHeaders())
      .filter(([k]) => k.startsWith('access-control-') || k === 'vary' || k === 'x-request-id')
      .map(([k, v]) => [k, String(v)]),
  );
}
