import type { LogoutReason } from '@latchkey/contracts/client';
import { Alert, Anchor } from '@mantine/core';
import { useState } from 'react';
import { takeLogoutReason } from '../../lib/session.ts';
import { useTranslation } from '../../lib/use-translation.ts';

const COLORS: Record<Exclude<LogoutReason, 'team_switch'>, string> = {
  manual_logout: 'green',
  integration_successful: 'green',
  session_expired: 'yellow',
  app_initiated_login_failed: 'red',
  hub_unreachable: 'red',
  unknown_error: 'red',
};

/** What to check when the Hub cannot be reached (apps/web/public/help/hub-unreachable.html). */
const HUB_UNREACHABLE_HELP = './help/hub-unreachable.html';

/** The message for why the admin was signed out (spec §4 Logout-page messages), shown once. */
export function LogoutNotice() {
  const { t } = useTranslation();
  const [reason] = useState(takeLogoutReason);
  if (!reason || reason === 'team_switch') return null;
  return (
    <Alert color={COLORS[reason]} variant="light" role="status" data-testid="logout-notice" data-reason={reason}>
      {t(`logout.${reason}`)}
      {reason === 'hub_unreachable' && (
        <>
          {' '}
          <Anchor href={HUB_UNREACHABLE_HELP} size="sm" data-testid="hub-unreachable-help">
            {t('common.learn_more')}
          </Anchor>
        </>
      )}
    </Alert>
  );
}
