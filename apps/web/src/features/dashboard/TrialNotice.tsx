import { canAccess, RULES } from '@latchkey/contracts/client';
import { Alert, Anchor, Badge, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { useConsoleContext } from '../../lib/console-context.ts';
import { formatNumber } from '../../lib/format.ts';
import { useTeamSlug } from '../../lib/team-slug.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { useNotificationQuery } from './api.ts';
import { rememberTrialPopup, shouldShowTrialPopup, trialLevel } from './rules.ts';

const TRIAL_COLORS = { info: 'blue', warning: 'yellow', today: 'yellow', expired: 'red' } as const;

/** The trial banner linking to /billing, and the expiry popup at 0–3 days once a day (spec §2, §4). */
export function TrialNotice() {
  const { t } = useTranslation();
  const notice = useNotificationQuery();
  const team = useTeamSlug();
  const shell = useConsoleContext();
  const [popup, setPopup] = useState(false);
  // Spec §2: family teams only, and only for admins who can open /billing to upgrade.
  const eligible = shell.team.team_type === 'family' && canAccess(RULES.billing, shell.ctx);
  const days = eligible && notice.data?.code === 'trial' ? notice.data.days_left : null;
  useEffect(() => {
    if (days !== null && shouldShowTrialPopup(days, team, localStorage)) {
      rememberTrialPopup(team, localStorage);
      setPopup(true);
    }
  }, [days, team]);
  if (days === null) return null;
  const level = trialLevel(days);
  const message =
    level === 'expired'
      ? t('trial.expired')
      : level === 'today'
        ? t('trial.expires_today')
        : t('trial.days_left', { n: formatNumber(days) });
  return (
    <>
      <Alert color={TRIAL_COLORS[level]} data-testid="trial-banner" data-level={level} title={t('trial.title')}>
        <Group justify="space-between" gap="sm">
          <Text size="sm">{message}</Text>
          <Anchor component={Link} href="/billing" size="sm" fw={600}>
            {t('trial.upgrade')}
          </Anchor>
        </Group>
      </Alert>
      <Modal opened={popup} onClose={() => setPopup(false)} title={t('trial.popup_title')} centered>
        <Stack gap="md" data-testid="trial-popup">
          <Group gap="xs">
            <Badge color={TRIAL_COLORS[level]} variant="light">
              {t(`trial.level.${level}`)}
            </Badge>
          </Group>
          <Text size="sm">{message}</Text>
          <Text size="sm" c="dimmed">
            {t('trial.popup_body')}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setPopup(false)}>
              {t('trial.later')}
            </Button>
            <Button component={Link} href="/billing" onClick={() => setPopup(false)}>
              {t('trial.upgrade')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
