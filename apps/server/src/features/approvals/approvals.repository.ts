import type { ApprovalAction, ApprovalApply, ApprovalChange, ApprovalPolicy, ApprovalStatus } from '@latchkey/contracts';
import type { Queryable } from '@latchkey/runtime';

export interface RequestRow {
  id: string;
  team_id: string;
  action: ApprovalAction;
  call: string;
  payload: Record<string, unknown>;
  payload_hash: string;
  requester_id: string;
  /** The caller the approved action runs as (a snapshot of who asked, when they asked). */
  requester: Record<string, unknown>;
  requester_email: string;
  requester_name: string;
  summary: string;
  changes: ApprovalChange[];
  approvers_required: number;
  apply: ApprovalApply;
  status: ApprovalStatus;
  created_at: Date;
  expires_at: Date;
  closed_at: Date | null;
  closed_reason: string | null;
}

export interface DecisionRow {
  request_id: string;
  user_id: string | null;
  email: string;
  name: string;
  decision: 'approved' | 'rejected';
  comment: string;
  operator: boolean;
  decided_at: Date;
}

const COLUMNS = `id, team_id, action, call, payload, payload_hash, requester_id, requester, requester_email, requester_name,
  summary, changes, approvers_required, apply, status, created_at, expires_at, closed_at, closed_reason`;

export interface NewRequest {
  teamId: string;
  action: ApprovalAction;
  call: string;
  payload: unknown;
  payloadHash: string;
  requesterId: string;
  requester: unknown;
  requesterEmail: string;
  requesterName: string;
  summary: string;
  changes: ApprovalChange[];
  approversRequired: number;
  apply: ApprovalApply;
  expiryHours: number;
}

export const approvalsRepository = {
  async policy(q: Queryable, teamId: string): Promise<ApprovalPolicy | undefined> {
    const rows = await q.query<{ policy: ApprovalPolicy }>('select policy from approval_policies where team_id = $1', [teamId]);
    return rows[0]?.policy;
  },

  async savePolicy(q: Queryable, teamId: string, policy: ApprovalPolicy, by: string | null): Promise<void> {
    await q.query(
      `insert into approval_policies (team_id, policy, updated_by) values ($1, $2, $3)
       on conflict (team_id) do update set policy = excluded.policy, updated_by = excluded.updated_by, updated_at = now()`,
      [teamId, JSON.stringify(policy), by],
    );
  },

  async create(q: Queryable, r: NewRequest): Promise<RequestRow> {
    const rows = await q.query<RequestRow>(
      `insert into approval_requests (team_id, action, call, payload, payload_hash, requester_id, requester, requester_email,
         requester_name, summary, changes, approvers_required, apply, expires_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, now() + make_interval(hours => $14::int))
       returning ${COLUMNS}`,
      [
        r.teamId,
        r.action,
        r.call,
        JSON.stringify(r.payload),
        r.payloadHash,
        r.requesterId,
        JSON.stringify(r.requester),
        r.requesterEmail,
        r.requesterName,
        r.summary,
        JSON.stringify(r.changes),
        r.approversRequired,
        r.apply,
        r.expiryHours,
      ],
    );
    return rows[0] as RequestRow;
  },

  /** The same person's open request for the same call and payload (asking twice makes no second request). */
  async findOpen(q: Queryable, teamId: string, requesterId: string, call: string, hash: string): Promise<RequestRow | undefined> {
    const rows = await q.query<RequestRow>(
      `select ${COLUMNS} from approval_requests
       where team_id = $1 and requester_id = $2 and call = $3 and payload_hash = $4
         and status in ('pending', 'approved') and expires_at > now()
       order by created_at desc limit 1`,
      [teamId, requesterId, call, hash],
    );
    return rows[0];
  },

  async find(q: Queryable, teamId: string, id: string): Promise<RequestRow | undefined> {
    const rows = await q.query<RequestRow>(`select ${COLUMNS} from approval_requests where team_id = $1 and id = $2`, [
      teamId,
      id,
    ]);
    return rows[0];
  },

  /** The request, locked until the transaction ends: two approvals close it one after the other. */
  async lock(q: Queryable, id: string): Promise<RequestRow | undefined> {
    const rows = await q.query<RequestRow>(`select ${COLUMNS} from approval_requests where id = $1 for update`, [id]);
    return rows[0];
  },

  async list(
    q: Queryable,
    teamId: string,
    filter: { requesterId?: string; pending?: boolean; visible: { actions: string[]; or: string } },
    page: { limit: number; offset: number },
  ): Promise<{ rows: RequestRow[]; count: number }> {
    const where = ['team_id = $1'];
    const params: unknown[] = [teamId];
    if (filter.requesterId) {
      params.push(filter.requesterId);
      where.push(`requester_id = $${params.length}`);
    }
    if (filter.pending) where.push(`status = 'pending'`);
    params.push(filter.visible.actions, filter.visible.or);
    where.push(`(action = any($${params.length - 1}::text[]) or requester_id = $${params.length})`);
    const clause = where.join(' and ');
    const count = await q.query<{ n: number }>(`select count(*)::int as n from approval_requests where ${clause}`, params);
    const rows = await q.query<RequestRow>(
      `select ${COLUMNS} from approval_requests where ${clause} order by created_at desc, id
       limit $${params.length + 1} offset $${params.length + 2}`,
      [...params, page.limit, page.offset],
    );
    return { rows, count: count[0]?.n ?? 0 };
  },

  /** Every pending request of a team (a team has few: the pending-for-me view filters them in code). */
  async pending(q: Queryable, teamId: string): Promise<RequestRow[]> {
    return q.query<RequestRow>(
      `select ${COLUMNS} from approval_requests where team_id = $1 and status = 'pending' order by created_at desc`,
      [teamId],
    );
  },

  /** Closes a request that is still in `from`; false when another transaction closed it first. */
  async close(q: Queryable, id: string, from: ApprovalStatus[], to: ApprovalStatus, reason: string | null): Promise<boolean> {
    const rows = await q.query(
      `update approval_requests set status = $2, closed_at = now(), closed_reason = $3
       where id = $1 and status = any($4::text[]) returning id`,
      [id, to, reason, from],
    );
    return rows.length > 0;
  },

  async markApproved(q: Queryable, id: string): Promise<void> {
    await q.query(`update approval_requests set status = 'approved' where id = $1 and status = 'pending'`, [id]);
  },

  /** Pending or approved requests past their expiry, locked, for the sweep to close (skipping those being decided). */
  async lockDue(q: Queryable, teamId?: string): Promise<RequestRow[]> {
    return q.query<RequestRow>(
      `select ${COLUMNS} from approval_requests
       where status in ('pending', 'approved') and expires_at <= now() ${teamId ? 'and team_id = $1' : ''}
       order by expires_at limit 200 for update skip locked`,
      teamId ? [teamId] : [],
    );
  },

  async decide(
    q: Queryable,
    d: {
      requestId: string;
      userId: string | null;
      email: string;
      name: string;
      decision: 'approved' | 'rejected';
      comment: string;
      operator: boolean;
    },
  ): Promise<boolean> {
    const rows = await q.query(
      `insert into approval_decisions (request_id, user_id, email, name, decision, comment, operator)
       values ($1, $2, $3, $4, $5, $6, $7) on conflict do nothing returning request_id`,
      [d.requestId, d.userId, d.email, d.name, d.decision, d.comment, d.operator],
    );
    return rows.length > 0;
  },

  async decisions(q: Queryable, requestIds: string[]): Promise<DecisionRow[]> {
    if (requestIds.length === 0) return [];
    return q.query<DecisionRow>(
      `select request_id, user_id, email, name, decision, comment, operator, decided_at from approval_decisions
       where request_id = any($1::uuid[]) order by decided_at, email`,
      [requestIds],
    );
  },
};
