import type { EventRecord } from '@latchkey/contracts';

/**
 * The OCSF 1.1 form of an event (Open Cybersecurity Schema Framework), for SIEMs that ingest OCSF:
 * sign-in, its failures, sign-out and team switch as Authentication (class 3002); every other change as Account
 * Change (class 3001), both in the Identity & Access Management category (3). The native event
 * rides along in `unmapped`, so nothing is lost.
 */
const AUTH_ACTIVITY: Record<string, { id: number; name: string }> = {
  'auth.sign_in': { id: 1, name: 'Logon' },
  'auth.sign_in_failed': { id: 1, name: 'Logon' },
  'auth.sign_out': { id: 2, name: 'Logoff' },
  // Leaving the team for another: the session here ends.
  'auth.team_switch': { id: 2, name: 'Logoff' },
};

function accountActivity(activity: string): { id: number; name: string } {
  if (/\.(created|invited|added|nominated)$/.test(activity)) return { id: 1, name: 'Create' };
  if (/password|auth_reset/.test(activity)) return { id: 3, name: 'Password Change' };
  if (/\.(removed|deleted)$/.test(activity)) return { id: 6, name: 'Delete' };
  if (/suspend|disabled|deactivated/.test(activity)) return { id: 5, name: 'Disable' };
  if (/enabled|activated|accepted/.test(activity)) return { id: 2, name: 'Enable' };
  return { id: 99, name: 'Other' };
}

export function toOcsf(e: EventRecord & { team_slug: string }): Record<string, unknown> {
  const auth = AUTH_ACTIVITY[e.activity];
  const classUid = auth ? 3002 : 3001;
  const activity = auth ?? accountActivity(e.activity);
  const failed = e.outcome === 'failure';
  return {
    metadata: {
      version: '1.1.0',
      uid: e.id,
      product: { name: 'Latchkey Hub', vendor_name: 'Latchkey' },
      sequence: e.seq,
      logged_time: Date.parse(e.recorded_at),
      tenant_uid: e.team_slug,
    },
    time: Date.parse(e.occurred_at),
    category_uid: 3,
    category_name: 'Identity & Access Management',
    class_uid: classUid,
    class_name: auth ? 'Authentication' : 'Account Change',
    activity_id: activity.id,
    activity_name: activity.name,
    type_uid: classUid * 100 + activity.id,
    severity_id: failed ? 3 : 1,
    status_id: failed ? 2 : 1,
    status: failed ? 'Failure' : 'Success',
    message: e.activity,
    actor: { user: { name: e.actor, email_addr: e.actor.includes('@') ? e.actor : undefined, type: e.actor_type } },
    ...(e.ip ? { src_endpoint: { ip: e.ip } } : {}),
    ...(e.device ? { device: { uid: e.device } } : {}),
    ...(auth ? { user: { name: e.actor } } : { user: { name: e.target || e.actor } }),
    unmapped: { component: e.component, target: e.target, detail: e.detail, hash: e.hash, prev_hash: e.prev_hash },
  };
}
