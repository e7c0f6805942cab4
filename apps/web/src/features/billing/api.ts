import { INVOICES_PAGE_SIZE } from '@latchkey/contracts/client';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../lib/api.ts';
import { useTeamSlug } from '../../lib/team-slug.ts';
import { dashboardKeys } from '../dashboard/index.ts';
import { memberKeys } from '../members/index.ts';
import { teamKeys } from '../team/index.ts';

/** Query keys of the billing screen; the team slug scopes the cache. */
const billingKeys = {
  all: (team: string) => ['billing', team] as const,
  subscription: (team: string) => [...billingKeys.all(team), 'subscription'] as const,
  plans: (team: string) => [...billingKeys.all(team), 'plans'] as const,
  invoices: (team: string, page: number) => [...billingKeys.all(team), 'invoices', page] as const,
  licenceQuote: (team: string, quantity: number) => [...billingKeys.all(team), 'licence-quote', quantity] as const,
  planQuote: (team: string, planId: string) => [...billingKeys.all(team), 'plan-quote', planId] as const,
};

export const useSubscriptionQuery = () =>
  useQuery({ queryKey: billingKeys.subscription(useTeamSlug()), queryFn: () => call('billingSubscription', {}) });
export const usePlansQuery = () =>
  useQuery({ queryKey: billingKeys.plans(useTeamSlug()), queryFn: () => call('billingPlans', {}) });
export const useInvoicesQuery = (page: number) =>
  useQuery({
    queryKey: billingKeys.invoices(useTeamSlug(), page),
    queryFn: () => call('billingInvoices', { page, page_size: INVOICES_PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
/** The server's pro-rated quote for a valid quantity (null: nothing to ask yet). */
export const useLicenceQuoteQuery = (quantity: number | null) =>
  useQuery({
    queryKey: billingKeys.licenceQuote(useTeamSlug(), quantity ?? 0),
    queryFn: () => call('billingLicenceQuote', { quantity: quantity ?? 0 }),
    enabled: quantity !== null,
    retry: false,
  });
export const usePlanQuoteQuery = (planId: string) =>
  useQuery({
    queryKey: billingKeys.planQuote(useTeamSlug(), planId),
    queryFn: () => call('billingPlanQuote', { plan_id: planId }),
    retry: false,
  });

type BillingAction =
  | { kind: 'add'; quantity: number }
  | { kind: 'remove'; quantity: number }
  | { kind: 'plan'; planId: string }
  | { kind: 'email'; email: string }
  | { kind: 'autorenew'; autorenew: boolean }
  | { kind: 'paid'; id: string };

/** Every billing change; afterwards the subscription, the invoices, the dashboard and the team's bill state are stale. */
export function useBillingMutation() {
  const client = useQueryClient();
  const team = useTeamSlug();
  return useMutation({
    mutationFn: async (action: BillingAction) => {
      switch (action.kind) {
        case 'add':
          return call('billingLicenceAdd', { quantity: action.quantity });
        case 'remove':
          return call('billingLicenceRemove', { quantity: action.quantity });
        case 'plan':
          return call('billingPlanChange', { plan_id: action.planId });
        case 'email':
          return call('billingEmailUpdate', { billing_email: action.email });
        case 'autorenew':
          return call('billingAutorenewUpdate', { autorenew: action.autorenew });
        case 'paid':
          return call('billingInvoicePaid', { id: action.id });
      }
    },
    onSettled: async () => {
      await Promise.all([
        client.invalidateQueries({ queryKey: billingKeys.all(team) }),
        client.invalidateQueries({ queryKey: memberKeys.all(team) }),
        client.invalidateQueries({ queryKey: dashboardKeys.all(team) }),
        // The top bar's billing badge reads the team's bill state.
        client.invalidateQueries({ queryKey: teamKeys.team(team) }),
      ]);
    },
  });
}

/** Downloads an invoice's PDF (made on the server) as a file. */
export async function downloadInvoice(id: string): Promise<void> {
  const { filename, pdf_base64 } = await call('billingInvoicePdf', { id });
  const bytes = Uint8Array.from(atob(pdf_base64), (c) => c.charCodeAt(0));
  const url = URL.createObjectURL(new Blob([bytes], { type: 'application/pdf' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
