import type { Subscription } from '@latchkey/contracts/client';
import { Button, Group, SimpleGrid } from '@mantine/core';
import { formatNumber } from '../../../lib/format.ts';
import { useTranslation } from '../../../lib/use-translation.ts';
import { addableLicences } from '../rules.ts';
import type { Dialog } from './dialog.ts';
import { Fact, Section } from './Section.tsx';

export function LicencesCard({ s, open }: { s: Subscription; open: (d: Dialog) => void }) {
  const { t } = useTranslation();
  const unlimited = s.total_license < 0;
  const canBuy = !s.managed && !unlimited;
  // An ended subscription has no term to add licences to (the server refuses too): it renews by a plan.
  const canAdd = canBuy && s.display_state !== 'ended';
  // The spec's dash for unlimited, with the word that explains it (and who set it, for a reseller's team).
  const unlimitedHint = unlimited
    ? t(s.purchase_partner === 'reseller' ? 'billing.licences.unlimited_reseller' : 'billing.licences.unlimited')
    : undefined;
  return (
    <Section
      title={t('billing.licences')}
      testId="billing-licences"
      action={
        canBuy && (
          <Group gap="xs">
            <Button size="sm" variant="default" onClick={() => open({ kind: 'remove' })} data-testid="licences-remove-open">
              {t('billing.licences.remove')}
            </Button>
            {canAdd && (
              <Button
                size="sm"
                onClick={() => open({ kind: 'add' })}
                disabled={addableLicences(s.total_license) - s.licenses_on_order <= 0}
                data-testid="licences-add-open"
              >
                {t('billing.licences.add')}
              </Button>
            )}
          </Group>
        )
      }
    >
      <SimpleGrid cols={{ base: 2, md: 4 }} spacing="lg">
        <Fact label={t('billing.licences.total')} testId="licences-total" hint={unlimitedHint}>
          {unlimited ? '—' : formatNumber(s.total_license)}
        </Fact>
        <Fact label={t('billing.licences.in_use')} testId="licences-in-use">
          {formatNumber(s.licenses_in_use)}
        </Fact>
        <Fact label={t('billing.licences.available')} testId="licences-available" hint={unlimitedHint}>
          {s.licenses_available === null ? '—' : formatNumber(s.licenses_available)}
        </Fact>
        <Fact label={t('billing.licences.on_order')} testId="licences-on-order">
          {formatNumber(s.licenses_on_order)}
        </Fact>
      </SimpleGrid>
    </Section>
  );
}
