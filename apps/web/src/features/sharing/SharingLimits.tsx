import { FEATURE_VERSIONS, hubTooOld, SHARING_BOUNDS } from '@latchkey/contracts/client';
import { Alert, Button, Card, Group, NumberInput, Skeleton, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import { errorMessage, errorValues } from '../../lib/api-error.ts';
import { within } from '../../lib/bounds.ts';
import { useSession } from '../../lib/session.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { type SharingLimitsValue, useSharingLimitsQuery, useUpdateSharingLimitsMutation } from './api.ts';

/** The team's sharing limits, which the Hub enforces on every link the apps create. */
export function SharingLimits() {
  const { t } = useTranslation();
  const limits = useSharingLimitsQuery();
  const save = useUpdateSharingLimitsMutation();
  // View limits arrived with sharing 2.2; an older Hub keeps its own.
  const viewsLocked = hubTooOld(useSession()?.hub?.tokens.hub_version, 'sharing_v2');
  const [form, setForm] = useState<Partial<SharingLimitsValue>>({});
  useEffect(() => {
    if (limits.data) setForm(limits.data);
  }, [limits.data]);
  const valid =
    within(form.max_expiry_hours, SHARING_BOUNDS.max_expiry_hours) && within(form.max_views, SHARING_BOUNDS.max_views);
  const changed =
    limits.data !== undefined &&
    (form.max_expiry_hours !== limits.data.max_expiry_hours || form.max_views !== limits.data.max_views);
  return (
    <Card withBorder padding="md" data-testid="sharing-limits">
      <Title order={2} size="h5">
        {t('sharing.limits.title')}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {t('sharing.limits.description')}
      </Text>
      {!limits.data ? (
        <Skeleton h={64} />
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (!valid) return;
            save.mutate(form as SharingLimitsValue, {
              onSuccess: () => notifications.show({ color: 'teal', message: t('services.saved') }),
            });
          }}
        >
          <Stack gap="sm">
            {save.isError && (
              <Alert color="red" data-testid="form-error">
                {t(errorMessage(save.error), errorValues(save.error))}
              </Alert>
            )}
            <Group align="flex-start" gap="md" wrap="wrap">
              <NumberInput
                label={t('sharing.limits.max_expiry')}
                description={t('sharing.limits.hours_range', SHARING_BOUNDS.max_expiry_hours)}
                suffix={` ${t('sharing.unit.hours')}`}
                value={form.max_expiry_hours ?? ''}
                onChange={(v) => setForm((f) => ({ ...f, max_expiry_hours: typeof v === 'number' ? v : undefined }))}
                min={SHARING_BOUNDS.max_expiry_hours.min}
                max={SHARING_BOUNDS.max_expiry_hours.max}
                allowDecimal={false}
                allowNegative={false}
                w={220}
              />
              <NumberInput
                label={t('sharing.limits.max_views')}
                description={
                  viewsLocked
                    ? t('nav.disabled.hub_too_old', { version: FEATURE_VERSIONS.sharing_v2 })
                    : t('sharing.limits.views_range', SHARING_BOUNDS.max_views)
                }
                value={form.max_views ?? ''}
                onChange={(v) => setForm((f) => ({ ...f, max_views: typeof v === 'number' ? v : undefined }))}
                min={SHARING_BOUNDS.max_views.min}
                max={SHARING_BOUNDS.max_views.max}
                allowDecimal={false}
                allowNegative={false}
                disabled={viewsLocked}
                w={220}
              />
            </Group>
            <Group>
              <Button type="submit" size="sm" disabled={!valid || !changed} loading={save.isPending}>
                {t('common.save')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Card>
  );
}
