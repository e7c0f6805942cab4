import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { TEAM_TYPES, type TeamType } from '@latchkey/contracts';
import { AppError, type Db } from '@latchkey/runtime';
import { z } from 'zod';
import { adminsRepository, recordAdminEvent, resetAdminAuth } from '../admins/index.ts';
import type { ApprovalsOperator } from '../approvals/index.ts';
import { issueOnboardingLink } from '../auth/index.ts';
import type { HubSessionEnder } from '../integration/index.ts';
import { teamRepository } from '../team/index.ts';
import { teamExport } from './team-export.ts';

const NewTeam = z.object({
  slug: z
    .string()
    .regex(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/, 'a slug is lower-case letters, digits and inner hyphens, at most 63'),
  name: z.string().trim().min(1).max(100),
  kind: z.enum(TEAM_TYPES),
  admin: z.string().trim().toLowerCase().email('the admin must be an email address'),
  validTill: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date as YYYY-MM-DD'),
});

/** Members written per page of an export: the whole team is never held in memory. */
const EXPORT_PAGE = 500;

/**
 * What the operator does at the server's command line and an admin cannot do in the console
 * (`latchkey create-team`, `reset-admin`, `export-team`). The operator is trusted with the whole
 * server: no Caller, and events are recorded without an actor.
 */
export function createOperatorService(
  db: Db,
  deps: { hubSessions: HubSessionEnder; consoleUrl: string | null; approvals: ApprovalsOperator },
) {
  const teamBySlug = async (slug: string) => {
    const team = await teamRepository.findBySlug(db, slug);
    if (!team) throw new AppError('not_found', `There is no team "${slug}".`, 404);
    return team;
  };

  return {
    /** The team's pending approval requests (`latchkey approvals`). */
    async approvals(slug: string) {
      return deps.approvals.pending((await teamBySlug(slug)).id);
    },

    /** Break-glass: approve a request whatever its approvals (the server then runs it), with a reason in the event log. */
    async approveRequest(slug: string, id: string, reason: string) {
      return deps.approvals.approve((await teamBySlug(slug)).id, id, reason);
    },

    /** Close a request without running it, with a reason in the event log. */
    async clearRequest(slug: string, id: string, reason: string) {
      return deps.approvals.clear((await teamBySlug(slug)).id, id, reason);
    },

    /**
     * A team and its first super admin. A new person signs in through the single-use onboarding
     * link (an emailed code, then a first password); a person who already has a password signs
     * in with it.
     */
    async createTeam(input: { slug: string; name: string; kind: string; admin: string; validTill?: string | undefined }) {
      const parsed = NewTeam.safeParse({
        ...input,
        validTill: input.validTill ?? new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10),
      });
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new AppError('invalid_input', `--${issue?.path.join('.') ?? '?'}: ${issue?.message ?? 'invalid'}`);
      }
      const t = parsed.data;
      return db.transaction(async (tx) => {
        const teamId = await teamRepository.create(tx, {
          slug: t.slug,
          name: t.name,
          teamType: t.kind as TeamType,
          organizationType: t.kind === 'family' ? 'basic' : 'standard',
          validTill: t.validTill,
        });
        if (!teamId) throw new AppError('conflict', `A team "${t.slug}" exists already.`, 409);
        const userId = await adminsRepository.ensureUser(tx, t.admin);
        await adminsRepository.upsert(tx, teamId, userId, ['super_admin']);
        await recordAdminEvent(tx, teamId, null, 'admin_added', t.admin, { scopes: ['super_admin'], by: 'operator' });
        const hasPassword = Boolean((await teamExport.admins(tx, teamId))[0]?.has_password);
        const onboarding =
          !hasPassword && deps.consoleUrl ? (await issueOnboardingLink(tx, deps.consoleUrl, userId, teamId)).link : null;
        return { teamId, slug: t.slug, admin: t.admin, hasPassword, onboarding };
      });
    },

    async resetAdmin(slug: string, email: string) {
      const team = await teamBySlug(slug);
      await resetAdminAuth(db, deps.hubSessions, team.id, email.trim().toLowerCase(), null);
    },

    /** The team as JSON, streamed: team, admins (no secrets), groups with policies and members, then every member. */
    async exportTeam(slug: string, out: Writable) {
      const team = await teamBySlug(slug);
      const write = async (text: string) => {
        if (!out.write(text)) await once(out, 'drain');
      };
      await db.transaction(async (tx) => {
        // One snapshot for the whole export, however long the pages take.
        await tx.query('set transaction isolation level repeatable read');
        const head = {
          format: 'latchkey-team-export',
          version: 1,
          exported_at: new Date().toISOString(),
          team: await teamExport.team(tx, team.id),
          admins: await teamExport.admins(tx, team.id),
          team_policy: await teamExport.teamPolicy(tx, team.id),
          groups: await teamExport.groups(tx, team.id),
        };
        await write(`${JSON.stringify(head, null, 1).replace(/\n}$/, '')},\n "members": [`);
        let after = '';
        let first = true;
        for (;;) {
          const page = await teamExport.membersPage(tx, team.id, after, EXPORT_PAGE);
          for (const member of page) {
            await write(`${first ? '\n  ' : ',\n  '}${JSON.stringify(member)}`);
            first = false;
          }
          if (page.length < EXPORT_PAGE) break;
          after = page.at(-1)?.email ?? after;
        }
        await write('\n ]\n}\n');
      });
    },
  };
}
export type OperatorService = ReturnType<typeof createOperatorService>;
