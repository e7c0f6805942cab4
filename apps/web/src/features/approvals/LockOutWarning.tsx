import { Alert } from '@mantine/core';
import { Icon } from '../../components/Icon.tsx';
import { formatNumber } from '../../lib/format.ts';
import { useTranslation } from '../../lib/use-translation.ts';

/**
 * Fewer people could approve than the policy needs (one super admin left, the others suspended):
 * requests would wait until the operator approves or clears them at the server's command line.
 */
export function LockOutWarning({ eligible, required }: { eligible: number; required: number }) {
  const { t } = useTranslation();
  return (
    <Alert
      color="orange"
      variant="light"
      icon={<Icon name="alert" />}
      title={t('approvals.lockout.title')}
      data-testid="approval-lockout"
    >
      {t('approvals.lockout.body', { eligible: formatNumber(eligible), required: formatNumber(required) })}
    </Alert>
  );
}
