import { EVENT_TYPES } from '../eventlogs-constants.ts';
import type { ActivitySpec, ComponentSpec } from './types.ts';

/** The event log itself, its pull API and its SIEM destination (the Hub writes these). */
export const EVENT_LOG_ACTIVITIES = {
  sources: ['hub'],
  activities: {
    'event_logs.retention_changed': { severity: 'warning', fields: ['delete_after_days'] },
    'event_logs.retention_checkpoint': { severity: 'info', fields: ['floor_seq', 'removed_before'] },
    'event_logs.pull_token_created': { severity: 'notice' },
    'event_logs.pull_token_revoked': { severity: 'notice' },
    'event_logs.search_saved': { severity: 'info', fields: ['search_id'] },
    'event_logs.search_updated': { severity: 'info', fields: ['search_id'] },
    'event_logs.search_deleted': { severity: 'info', fields: ['search_id'] },
    'event_logs.search_sharing_changed': { severity: 'info', fields: ['search_id', 'shared'] },
    'event_logs.verification_failed': { severity: 'critical', fields: ['problem_count', 'first_seq', 'last_seq'] },
    'siem.enabled': { severity: 'notice' },
    'siem.disabled': { severity: 'warning' },
    'siem.configured': { severity: 'notice' },
    'siem.updated': { severity: 'notice' },
    'siem.test': { severity: 'info' },
    'siem.activated': { severity: 'notice' },
    'siem.deactivated': { severity: 'warning' },
    'siem.deleted': { severity: 'warning' },
    'siem.backfill': { severity: 'notice', fields: ['from_timestamp'] },
    'siem.delivery_failing': { severity: 'critical', fields: ['failing_since', 'error'] },
    'alert.rule_created': { severity: 'notice', fields: ['rule_id', 'template'] },
    'alert.rule_updated': { severity: 'notice', fields: ['rule_id', 'enabled'] },
    'alert.rule_deleted': { severity: 'warning', fields: ['rule_id'] },
    'alert.fired': { severity: 'warning', fields: ['rule_id', 'firing_id', 'matched', 'group', 'siem_alert'] },
    'alert.test_sent': { severity: 'info', fields: ['rule_id', 'firing_id'] },
  },
} as const satisfies ComponentSpec;

/** The directory sync's runs and its connection (the changes a run applies are logged under members and groups). */
export const DIRECTORY_ACTIVITIES = {
  sources: ['hub'],
  activities: {
    'directory.connection_saved': { severity: 'notice', fields: ['kind'] },
    'directory.connection_removed': { severity: 'warning' },
    'directory.previewed': { severity: 'info', fields: ['run'] },
    'directory.synced': { severity: 'info', fields: ['run'] },
    'directory.sync_failed': { severity: 'warning', fields: ['run', 'error'] },
  },
} as const satisfies ComponentSpec;

/** Account recovery: the service switch (server), requests and approvals (Hub). */
export const RECOVERY_ACTIVITIES = {
  sources: ['server', 'hub'],
  activities: {
    'recovery.service_enabled': { severity: 'notice' },
    'recovery.service_disabled': { severity: 'warning' },
    'recovery.admin_nominated': { severity: 'warning' },
    'recovery.admin_accepted': { severity: 'notice' },
    'recovery.requested': { severity: 'notice' },
    'recovery.approved': { severity: 'warning' },
  },
} as const satisfies ComponentSpec;

/** Share links members create in their apps, and the team's limits on them. */
export const SHARING_ACTIVITIES = {
  sources: ['hub'],
  activities: {
    'share.created': { severity: 'info', fields: ['expires_in_hours', 'view_limit'] },
    'share.revoked': { severity: 'info' },
    'sharing.limits_updated': { severity: 'notice', fields: ['max_expiry_hours', 'max_views'] },
  },
} as const satisfies ComponentSpec;

type AppCode = `app.${(typeof EVENT_TYPES)[number]}`;

/**
 * What members' apps report (the ingestion API's event types, `app.` before each): a closed list,
 * so the catalogue declares each. An app newer than the Hub cannot send another type (refused);
 * an older log's unknown code is shown as the code itself.
 */
export const APP_ACTIVITIES = {
  sources: ['app'],
  activities: Object.fromEntries(EVENT_TYPES.map((t) => [`app.${t}`, { severity: 'info' }])) as Record<AppCode, ActivitySpec>,
} as const satisfies ComponentSpec;
