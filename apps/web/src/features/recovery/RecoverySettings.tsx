import {
  emailProblem,
  FEATURE_VERSIONS,
  hubTooOld,
  MAX_RECOVERY_RECIPIENT_EMAILS,
  RECOVERY_LINK_BOUNDS,
  RECOVERY_LINK_DEFAULT_MINUTES,
  RECOVERY_RECIPIENT_TYPES,
  type RecoveryRecipientType,
} from '@latchkey/contracts/client';
import { Alert, Button, Card, Group, NumberInput, Radio, Skeleton, Stack, Switch, TagsInput, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type ReactNode, useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { errorMessage, errorValues } from '../../lib/api-error.ts';
import { within } from '../../lib/bounds.ts';
import { formatNumber } from '../../lib/format.ts';
import { useSession } from '../../lib/session.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import {
  useLinkExpirationMutation,
  useRecoveryNotificationMutation,
  useRecoveryServiceMutation,
  useRecoverySettingsQuery,
} from './api.ts';

/** Settings → recovery: the service switch, the recovery link's lifetime (minutes) and who is notified. */
export function RecoverySettings() {
  const hubVersion = useSession()?.hub?.tokens.hub_version;
  return (
    <Stack gap="md" data-testid="recovery-settings">
      <ServiceCard />
      <LinkExpirationCard locked={hubTooOld(hubVersion, 'recovery_link')} />
      <NotificationCard locked={hubTooOld(hubVersion, 'recovery_notification')} />
    </Stack>
  );
}

function SettingsCard({
  titleKey,
  bodyKey,
  children,
  testId,
}: {
  titleKey: string;
  bodyKey: string;
  children: ReactNode;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Card withBorder padding="md" data-testid={testId}>
      <Title order={2} size="h5">
        {t(titleKey)}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {t(bodyKey)}
      </Text>
      {children}
    </Card>
  );
}

function TooOld({ feature }: { feature: 'recovery_link' | 'recovery_notification' }) {
  const { t } = useTranslation();
  return (
    <Alert color="gray" data-testid="hub-too-old">
      {t('nav.disabled.hub_too_old', { version: FEATURE_VERSIONS[feature] })}
    </Alert>
  );
}

function ServiceCard() {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const [confirming, setConfirming] = useState(false);
  const service = useRecoveryServiceMutation();
  return (
    <SettingsCard titleKey="recovery.service.title" bodyKey="recovery.service.body" testId="recovery-service">
      {/* This page exists only while recovery runs (route rule: service status 2), so the switch is on. */}
      <Switch checked label={t('recovery.service.label')} onChange={() => setConfirming(true)} />
      {confirming && (
        <ConfirmDialog
          title={t('recovery.service.off_title')}
          action={t('recovery.service.turn_off')}
          pending={service.isPending}
          error={service.error}
          onConfirm={() =>
            service.mutate(false, {
              onSuccess: () => {
                notifications.show({ color: 'teal', message: t('recovery.service.off') });
                navigate('/recovery');
              },
            })
          }
          onClose={() => setConfirming(false)}
        >
          {t('recovery.service.off_body')}
        </ConfirmDialog>
      )}
    </SettingsCard>
  );
}

function LinkExpirationCard({ locked }: { locked: boolean }) {
  const { t } = useTranslation();
  const settings = useRecoverySettingsQuery();
  const save = useLinkExpirationMutation();
  const [minutes, setMinutes] = useState<number | undefined>();
  useEffect(() => {
    if (settings.data) setMinutes(settings.data.link_expiration_period);
  }, [settings.data]);
  const valid = within(minutes, RECOVERY_LINK_BOUNDS);
  const changed = settings.data !== undefined && minutes !== settings.data.link_expiration_period;
  return (
    <SettingsCard titleKey="recovery.link.title" bodyKey="recovery.link.body" testId="recovery-link">
      {locked ? (
        <TooOld feature="recovery_link" />
      ) : !settings.data ? (
        <Skeleton h={64} />
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (valid && changed)
              save.mutate(
                { link_expiration_period: minutes },
                { onSuccess: () => notifications.show({ color: 'teal', message: t('services.saved') }) },
              );
          }}
        >
          <Stack gap="sm">
            {save.isError && <Alert color="red">{t(errorMessage(save.error), errorValues(save.error))}</Alert>}
            <NumberInput
              label={t('recovery.link.label')}
              description={t('recovery.link.range', {
                min: RECOVERY_LINK_BOUNDS.min,
                max: formatNumber(RECOVERY_LINK_BOUNDS.max),
                default: RECOVERY_LINK_DEFAULT_MINUTES,
              })}
              suffix={` ${t('recovery.unit.minutes')}`}
              value={minutes ?? ''}
              onChange={(v) => setMinutes(typeof v === 'number' ? v : undefined)}
              min={RECOVERY_LINK_BOUNDS.min}
              max={RECOVERY_LINK_BOUNDS.max}
              allowDecimal={false}
              allowNegative={false}
              w={260}
            />
            <Group>
              <Button type="submit" size="sm" disabled={!valid || !changed} loading={save.isPending}>
                {t('common.save')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </SettingsCard>
  );
}

function NotificationCard({ locked }: { locked: boolean }) {
  const { t } = useTranslation();
  const settings = useRecoverySettingsQuery();
  const save = useRecoveryNotificationMutation();
  const [type, setType] = useState<RecoveryRecipientType>('recovery_admins');
  const [emails, setEmails] = useState<string[]>([]);
  useEffect(() => {
    if (!settings.data) return;
    setType(settings.data.recovery_notification_recipient_type);
    setEmails(settings.data.recovery_notification_recipient_emails);
  }, [settings.data]);
  const badEmail = emails.find((e) => emailProblem(e) !== null);
  const valid = type !== 'custom' || (emails.length > 0 && !badEmail);
  const saved = settings.data;
  const changed =
    saved !== undefined &&
    (type !== saved.recovery_notification_recipient_type ||
      (type === 'custom' && emails.join() !== saved.recovery_notification_recipient_emails.join()));
  return (
    <SettingsCard titleKey="recovery.notify.title" bodyKey="recovery.notify.body" testId="recovery-notify">
      {locked ? (
        <TooOld feature="recovery_notification" />
      ) : !saved ? (
        <Skeleton h={96} />
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (valid && changed)
              save.mutate(
                {
                  recovery_notification_recipient_type: type,
                  recovery_notification_recipient_emails: type === 'custom' ? emails : [],
                },
                { onSuccess: () => notifications.show({ color: 'teal', message: t('services.saved') }) },
              );
          }}
        >
          <Stack gap="sm">
            {save.isError && <Alert color="red">{t(errorMessage(save.error), errorValues(save.error))}</Alert>}
            <Radio.Group value={type} onChange={(v) => setType(v as RecoveryRecipientType)} label={t('recovery.notify.who')}>
              <Stack gap={6} mt={6}>
                {RECOVERY_RECIPIENT_TYPES.map((r) => (
                  <Radio key={r} value={r} label={t(`recovery.notify.type.${r}`)} />
                ))}
              </Stack>
            </Radio.Group>
            {type === 'custom' && (
              <TagsInput
                label={t('recovery.notify.emails')}
                description={t('recovery.notify.emails_hint', { max: MAX_RECOVERY_RECIPIENT_EMAILS })}
                value={emails}
                onChange={(v) => setEmails(v.map((e) => e.trim().toLowerCase()))}
                maxTags={MAX_RECOVERY_RECIPIENT_EMAILS}
                error={
                  badEmail
                    ? t('loginpage.enter_valid_email')
                    : emails.length === 0
                      ? t('recovery.notify.emails_required')
                      : undefined
                }
                splitChars={[',', ' ', ';']}
                maw={520}
              />
            )}
            <Group>
              <Button type="submit" size="sm" disabled={!valid || !changed} loading={save.isPending}>
                {t('common.save')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </SettingsCard>
  );
}
