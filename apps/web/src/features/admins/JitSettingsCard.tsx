import { Group, Switch, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { ModalError } from '../../components/ModalError.tsx';
import { SectionCard } from '../../components/SectionCard.tsx';
import { useTranslation } from '../../lib/use-translation.ts';
import { useElevationSettingsMutation, useMyElevationsQuery } from './api.ts';

/** The team's just-in-time switch, above the administrators list (super admin only, as the screen). */
export function JitSettingsCard() {
  const { t } = useTranslation();
  const mine = useMyElevationsQuery();
  const save = useElevationSettingsMutation();
  const settings = mine.data?.settings;
  return (
    <SectionCard title={t('admins.jit.title')} testId="jit-settings">
      <ModalError error={save.error} />
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Text size="sm" c="dimmed">
          {t('admins.jit.description')}
        </Text>
        <Switch
          checked={settings?.enabled ?? false}
          disabled={!settings || save.isPending}
          aria-label={t('admins.jit.title')}
          data-testid="jit-switch"
          onChange={(event) => {
            const enabled = event.currentTarget.checked;
            save.mutate(enabled, {
              onSuccess: () => notifications.show({ color: 'teal', message: t(enabled ? 'admins.jit.on' : 'admins.jit.off') }),
            });
          }}
        />
      </Group>
      {settings?.enabled && settings.self_scopes.length > 0 && (
        <Text size="sm" data-testid="jit-self-scopes">
          {t('admins.jit.self_scopes', { scopes: settings.self_scopes.map((s) => t(`admins.scope.${s}`)).join(', ') })}
        </Text>
      )}
    </SectionCard>
  );
}
