import {
  BULK_REMOVE_MIN,
  membersCountEndpoint,
  membersEndpoint,
  membersExportEndpoint,
  membersInviteEndpoint,
  membersLicenceEndpoint,
  membersRemoveEndpoint,
  membersResendInviteEndpoint,
  membersStatusEndpoint,
} from '@latchkey/contracts';
import type { Db, Router } from '@latchkey/runtime';
import { type Guard, requireCaller } from '../../http/caller.ts';
import type { MailOutbox } from '../../platform/mail.ts';
import type { Approvals } from '../approvals/index.ts';
import { createMembersService, type MembersDeps } from './members.service.ts';

/** The members list and its bulk actions: thin, every rule in the service. */
export function membersRoutes(router: Router, guard: Guard, db: Db, mail: MailOutbox, deps: MembersDeps, approvals: Approvals) {
  const members = createMembersService(db, mail, deps);
  const inDb = (q: Db) => (q === db ? members : createMembersService(q, mail, deps));
  // Under four-eyes approval: the CSV export (run by the requester once approved) and removing several members.
  const exportCsv = approvals.approvable(membersExportEndpoint, 'members.export', {
    run: (input, caller, q) => inDb(q).exportCsv(caller, input),
    describe: async (input) => ({ summary: `Export the members list as CSV (filters: ${JSON.stringify(input)})` }),
  });
  const remove = approvals.approvable(membersRemoveEndpoint, 'members.bulk_remove', {
    run: (input, caller, q) => inDb(q).remove(caller, input.emails),
    describe: async (input) => ({
      summary: `Remove ${input.emails.length} members: ${input.emails.join(', ')}`,
      changes: input.emails.map((email) => ({ key: email, kind: 'removed' as const, before: 'member', after: null })),
    }),
  });
  router.handle(membersEndpoint, guard, ({ ctx, input }) => {
    const { after, page_size, ...filters } = input;
    return members.page(requireCaller(ctx), filters, after, page_size);
  });
  router.handle(membersCountEndpoint, guard, ({ ctx, input }) => members.count(requireCaller(ctx), input));
  router.handle(membersExportEndpoint, guard, ({ ctx, input }) => exportCsv(requireCaller(ctx), input));
  router.handle(membersInviteEndpoint, guard, ({ ctx, input }) => members.invite(requireCaller(ctx), input.emails));
  router.handle(membersResendInviteEndpoint, guard, ({ ctx, input }) => members.resendInvite(requireCaller(ctx), input.emails));
  router.handle(membersLicenceEndpoint, guard, ({ ctx, input }) =>
    members.licence(requireCaller(ctx), input.emails, input.action),
  );
  router.handle(membersStatusEndpoint, guard, ({ ctx, input }) => members.status(requireCaller(ctx), input.emails, input.action));
  router.handle(membersRemoveEndpoint, guard, ({ ctx, input }) =>
    remove(requireCaller(ctx), input, { onlyIf: async () => input.emails.length >= BULK_REMOVE_MIN }),
  );
}
