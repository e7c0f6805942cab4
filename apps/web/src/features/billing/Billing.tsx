import { Skeleton, Stack } from '@mantine/core';
import { useState } from 'react';
import { DataFetchError } from '../../components/StatusScreens.tsx';
import { useSubscriptionQuery } from './api.ts';
import { AddLicencesDialog, RemoveLicencesDialog } from './dialogs/LicenceDialogs.tsx';
import { MarkPaidDialog } from './dialogs/MarkPaidDialog.tsx';
import { PlanChangeDialog } from './dialogs/PlanChangeDialog.tsx';
import type { Dialog } from './sections/dialog.ts';
import { InvoicesCard } from './sections/InvoicesCard.tsx';
import { LicencesCard } from './sections/LicencesCard.tsx';
import { PlansCard } from './sections/PlansCard.tsx';
import { StateNotice } from './sections/StateNotice.tsx';
import { SubscriptionCard } from './sections/SubscriptionCard.tsx';

/** /billing (super admin): the subscription, plans, licences and invoices (spec §3–§5, §9). */
export function Billing() {
  const subscription = useSubscriptionQuery();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  if (subscription.isError) return <DataFetchError onRetry={() => void subscription.refetch()} />;
  const s = subscription.data;
  if (!s)
    return (
      <Stack gap="lg" data-testid="billing-loading">
        <Skeleton h={180} radius="md" />
        <Skeleton h={240} radius="md" />
      </Stack>
    );
  const close = () => setDialog(null);
  return (
    <Stack gap="lg" data-testid="billing" data-state={s.state}>
      <StateNotice s={s} />
      <SubscriptionCard s={s} />
      <LicencesCard s={s} open={setDialog} />
      {!s.managed && <PlansCard s={s} open={setDialog} />}
      <InvoicesCard s={s} open={setDialog} />
      {dialog?.kind === 'add' && <AddLicencesDialog s={s} onClose={close} />}
      {dialog?.kind === 'remove' && <RemoveLicencesDialog s={s} onClose={close} />}
      {dialog?.kind === 'plan' && <PlanChangeDialog s={s} planId={dialog.planId} onClose={close} />}
      {dialog?.kind === 'paid' && <MarkPaidDialog invoice={dialog.invoice} onClose={close} />}
    </Stack>
  );
}
