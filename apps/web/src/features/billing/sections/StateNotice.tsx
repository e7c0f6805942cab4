import { MANAGED_PARTNERS, type Subscription } from '@latchkey/contracts/client';
import { Alert } from '@mantine/core';
import { formatDate, isolate } from '../../../lib/format.ts';
import { useTranslation } from '../../../lib/use-translation.ts';

/** Grace period, ended, trial, managed: what it means for the admin, above the details. */
export function StateNotice({ s }: { s: Subscription }) {
  const { t } = useTranslation();
  if (s.managed) {
    const partner = s.purchase_partner && MANAGED_PARTNERS.includes(s.purchase_partner) ? s.purchase_partner : 'reseller';
    // Ended is the news: who manages it comes second, as who to contact.
    if (s.display_state === 'ended')
      return (
        <Alert color="red" title={t('notice.ended.title')} data-testid="billing-managed" data-state="ended">
          {t('notice.ended.undated')} {t(`notice.ended.${partner}`)}
        </Alert>
      );
    return (
      <Alert color="blue" title={t(`billing.managed.${partner}.title`)} data-testid="billing-managed">
        {t(`billing.managed.${partner}.body`)}
      </Alert>
    );
  }
  if (s.display_state === 'grace')
    return (
      <Alert color="yellow" title={t('notice.grace.title')} data-testid="billing-grace">
        {t('billing.grace.body', { date: s.grace_until ? isolate(formatDate(s.grace_until)) : '' })}
      </Alert>
    );
  if (s.display_state === 'ended')
    return (
      <Alert color="red" title={t('notice.ended.title')} data-testid="billing-ended">
        {s.state === 'expired'
          ? `${t('notice.ended.on', { date: isolate(formatDate(s.bill_end_date)) })} ${t('notice.ended.renew')}`
          : t('billing.ended.body')}
      </Alert>
    );
  if (s.display_state === 'trial')
    return (
      <Alert color="blue" title={t('trial.title')} data-testid="billing-trial">
        {t('billing.trial.body', { date: isolate(formatDate(s.bill_end_date)) })}
      </Alert>
    );
  return null;
}
