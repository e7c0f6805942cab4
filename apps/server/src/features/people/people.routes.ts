import {
  analyticsEventEndpoint,
  dashboardActivityEndpoint,
  dashboardProvisioningEndpoint,
  licenceSummaryEndpoint,
  membersCountEndpoint,
  membersEndpoint,
  membersExportEndpoint,
  membersInviteEndpoint,
  membersLicenceEndpoint,
  membersRemoveEndpoint,
  membersResendInviteEndpoint,
  membersStatusEndpoint,
  notificationEndpoint,
  teamNameEditEndpoint,
} from '@latchkey/contracts';
import type { Db, Router } from '@latchkey/runtime';
import { type Guard, requireCaller } from '../../http/guard.ts';
import type { MailOutbox } from '../../platform/mail.ts';
import { createPeopleService } from './people.service.ts';

/** Dashboard and members calls: thin, every rule in the service. */
export function peopleRoutes(router: Router, guard: Guard, db: Db, mail: MailOutbox) {
  const people = createPeopleService(db, mail);
  router.handle(notificationEndpoint, guard, async ({ ctx }) => people.notification(requireCaller(ctx)));
  router.handle(dashboardActivityEndpoint, guard, ({ ctx }) => people.activity(requireCaller(ctx)));
  router.handle(dashboardProvisioningEndpoint, guard, ({ ctx }) => people.provisioning(requireCaller(ctx)));
  router.handle(licenceSummaryEndpoint, guard, ({ ctx }) => people.licenceSummary(requireCaller(ctx)));
  router.handle(teamNameEditEndpoint, guard, ({ ctx, input }) => people.renameTeam(requireCaller(ctx), input.team_name));
  router.handle(analyticsEventEndpoint, guard, ({ ctx, input }) => people.analytics(requireCaller(ctx), input));
  router.handle(membersEndpoint, guard, ({ ctx, input }) => {
    const { after, page_size, ...filters } = input;
    return people.page(requireCaller(ctx), filters, after, page_size);
  });
  router.handle(membersCountEndpoint, guard, ({ ctx, input }) => people.count(requireCaller(ctx), input));
  router.handle(membersExportEndpoint, guard, ({ ctx, input }) => people.exportCsv(requireCaller(ctx), input));
  router.handle(membersInviteEndpoint, guard, ({ ctx, input }) => people.invite(requireCaller(ctx), input.emails));
  router.handle(membersResendInviteEndpoint, guard, ({ ctx, input }) => people.resendInvite(requireCaller(ctx), input.emails));
  router.handle(membersLicenceEndpoint, guard, ({ ctx, input }) =>
    people.licence(requireCaller(ctx), input.emails, input.action),
  );
  router.handle(membersStatusEndpoint, guard, ({ ctx, input }) => people.status(requireCaller(ctx), input.emails, input.action));
  router.handle(membersRemoveEndpoint, guard, ({ ctx, input }) => people.remove(requireCaller(ctx), input.emails));
}
