import {
  alertRuleCreateEndpoint,
  alertRuleDeleteEndpoint,
  alertRuleEnableEndpoint,
  alertRuleFiringsEndpoint,
  alertRulesListEndpoint,
  alertRuleTestEndpoint,
  alertRuleUpdateEndpoint,
  alertTemplateEnableEndpoint,
} from '@latchkey/contracts';
import type { Router } from '@latchkey/runtime';
import { type HubGuard, requireHubCaller } from '../../http/caller.ts';
import type { AlertsService } from './alerts.service.ts';

/**
 * The alert rules' calls: the event log's rule (super admins of a paid organisation), served only
 * while the team's event-logs service is on (`gated`).
 */
export function alertsRoutes(router: Router, gated: HubGuard, alerts: AlertsService) {
  router.handle(alertRulesListEndpoint, gated, async ({ ctx }) => alerts.list(requireHubCaller(ctx).teamSlug));
  router.handle(alertRuleCreateEndpoint, gated, async ({ input, ctx }) => {
    const caller = requireHubCaller(ctx);
    const { team_slug: _t, ...rule } = input;
    return alerts.create(caller.teamSlug, caller.email, rule);
  });
  router.handle(alertRuleUpdateEndpoint, gated, async ({ input, ctx }) => {
    const caller = requireHubCaller(ctx);
    const { team_slug: _t, id, ...rule } = input;
    return alerts.update(caller.teamSlug, caller.email, id, rule);
  });
  router.handle(alertRuleEnableEndpoint, gated, async ({ input, ctx }) => {
    const caller = requireHubCaller(ctx);
    return alerts.setEnabled(caller.teamSlug, caller.email, input.id, input.enabled);
  });
  router.handle(alertRuleDeleteEndpoint, gated, async ({ input, ctx }) => {
    const caller = requireHubCaller(ctx);
    return alerts.remove(caller.teamSlug, caller.email, input.id);
  });
  router.handle(alertTemplateEnableEndpoint, gated, async ({ input, ctx }) => {
    const caller = requireHubCaller(ctx);
    return alerts.enableTemplate(caller.teamSlug, caller.email, input.template, input.name, input.destinations);
  });
  router.handle(alertRuleTestEndpoint, gated, async ({ input, ctx }) => {
    const caller = requireHubCaller(ctx);
    return alerts.test(caller.teamSlug, caller.email, input.id);
  });
  router.handle(alertRuleFiringsEndpoint, gated, async ({ input, ctx }) =>
    alerts.firings(requireHubCaller(ctx).teamSlug, input.id, input),
  );
}
