import {
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
import { createMembersService, type MembersDeps } from './members.service.ts';

/** The members list and its bulk actions: thin, every rule in the service. */
export function membersRoutes(router: Router, guard: Guard, db: Db, mail: MailOutbox, deps: MembersDeps) {
  const members = createMembersService(db, mail, deps);
  router.handle(membersEndpoint, guard, ({ ctx, input }) => {
    const { after, page_size, ...filters } = input;
    return members.page(requireCaller(ctx), filters, after, page_size);
  });
  router.handle(membersCountEndpoint, guard, ({ ctx, input }) => members.count(requireCaller(ctx), input));
  router.handle(membersExportEndpoint, guard, ({ ctx, input }) => members.exportCsv(requireCaller(ctx), input));
  router.handle(membersInviteEndpoint, guard, ({ ctx, input }) => members.invite(requireCaller(ctx), input.emails));
  router.handle(membersResendInviteEndpoint, guard, ({ ctx, input }) => members.resendInvite(requireCaller(ctx), input.emails));
  router.handle(membersLicenceEndpoint, guard, ({ ctx, input }) =>
    members.licence(requireCaller(ctx), input.emails, input.action),
  );
  router.handle(membersStatusEndpoint, guard, ({ ctx, input }) => members.status(requireCaller(ctx), input.emails, input.action));
  router.handle(membersRemoveEndpoint, guard, ({ ctx, input }) => members.remove(requireCaller(ctx), input.emails));
}
