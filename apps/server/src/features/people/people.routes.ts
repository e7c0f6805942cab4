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
import { type Db, registerEndpoint } from '@latchkey/runtime';
import type { FastifyInstance } from 'fastify';
import { type Guard, requireCaller } from '../../http/guard.ts';
import type { MailOutbox } from '../../platform/mail.ts';
import { createPeopleService } from './people.service.ts';

/** The calls this slice answers, for the OpenAPI document. */
export const PEOPLE_ENDPOINTS = [
  notificationEndpoint,
  dashboardActivityEndpoint,
  dashboardProvisioningEndpoint,
  licenceSummaryEndpoint,
  teamNameEditEndpoint,
  analyticsEventEndpoint,
  membersEndpoint,
  membersCountEndpoint,
  membersExportEndpoint,
  membersInviteEndpoint,
  membersResendInviteEndpoint,
  membersLicenceEndpoint,
  membersStatusEndpoint,
  membersRemoveEndpoint,
];

/** Dashboard and members calls: thin, every rule in the service. */
export function peopleRoutes(app: FastifyInstance, guard: Guard, db: Db, mail: MailOutbox) {
  const people = createPeopleService(db, mail);
  registerEndpoint(app, notificationEndpoint, guard, async ({ ctx }) => people.notification(requireCaller(ctx)));
  registerEndpoint(app, dashboardActivityEndpoint, guard, ({ ctx }) => people.activity(requireCaller(ctx)));
  registerEndpoint(app, dashboardProvisioningEndpoint, guard, ({ ctx }) => people.provisioning(requireCaller(ctx)));
  registerEndpoint(app, licenceSummaryEndpoint, guard, ({ ctx }) => people.licenceSummary(requireCaller(ctx)));
  registerEndpoint(app, teamNameEditEndpoint, guard, ({ ctx, input }) => people.renameTeam(requireCaller(ctx), input.team_name));
  registerEndpoint(app, analyticsEventEndpoint, guard, ({ ctx, input }) => people.analytics(requireCaller(ctx), input));
  registerEndpoint(app, membersEndpoint, guard, ({ ctx, input }) => {
    const { after, page_size, ...filters } = input;
    return people.page(requireCaller(ctx), filters, after, page_size);
  });
  registerEndpoint(app, membersCountEndpoint, guard, ({ ctx, input }) => people.count(requireCaller(ctx), input));
  registerEndpoint(app, membersExportEndpoint, guard, ({ ctx, input }) => people.exportCsv(requireCaller(ctx), input));
  registerEndpoint(app, membersInviteEndpoint, guard, ({ ctx, input }) => people.invite(requireCaller(ctx), input.emails));
  registerEndpoint(app, membersResendInviteEndpoint, guard, ({ ctx, input }) =>
    people.resendInvite(requireCaller(ctx), input.emails),
  );
  registerEndpoint(app, membersLicenceEndpoint, guard, ({ ctx, input }) =>
    people.licence(requireCaller(ctx), input.emails, input.action),
  );
  registerEndpoint(app, membersStatusEndpoint, guard, ({ ctx, input }) =>
    people.status(requireCaller(ctx), input.emails, input.action),
  );
  registerEndpoint(app, membersRemoveEndpoint, guard, ({ ctx, input }) => people.remove(requireCaller(ctx), input.emails));
}
