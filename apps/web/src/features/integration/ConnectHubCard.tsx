import { Alert, Badge, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { SectionCard } from '../../components/SectionCard.tsx';
import { errorValues } from '../../lib/api-error.ts';
import { logout } from '../../lib/auth.ts';
import { limitProps, SETUP_KEY_MAX, trimPasted, URL_MAX } from '../../lib/limits.ts';
import { useTeamSlug } from '../../lib/team-slug.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { teamKeys } from '../team/index.ts';
import { callHubDirect, connectHub, hubAddressProblem, integrationKeys } from './api.ts';
import { integrationErrorMessage } from './hub-features.ts';
import { Hint } from './Section.tsx';

/**
 * No Hub yet: the browser checks the address (health and connector, straight at the Hub), then
 * connects: a new credential on the server, which registers it at the Hub itself in a signed
 * call, with the setup key the Hub's operator minted for this team. The browser never registers
 * anything and never sees a signing secret.
 */
export function ConnectHubCard() {
  const { t } = useTranslation();
  const team = useTeamSlug();
  const client = useQueryClient();
  const [url, setUrl] = useState('');
  const [touched, setTouched] = useState(false);
  const [setupKey, setSetupKey] = useState('');
  const problem = hubAddressProblem(url);

  const check = useMutation({
    mutationFn: async () => {
      const health = await callHubDirect(url, 'hubHealth', {});
      const connector = await callHubDirect(url, 'hubConnector', { team_slug: team });
      return { version: health.version, registered: connector.registered };
    },
  });

  const connect = useMutation({
    mutationFn: () => connectHub(url, setupKey),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: integrationKeys.credentials(team) });
      await client.invalidateQueries({ queryKey: teamKeys.services(team) });
      // The Hub's own tokens come with a new sign-in (spec §4 integration_successful).
      logout('integration_successful');
    },
  });

  const error = check.error ?? connect.error;
  return (
    <SectionCard title={t('integration.connection.title')} testId="hub-connect">
      <Hint>{t('integration.connection.intro')}</Hint>
      {error && (
        <Alert color="red" data-testid="hub-connect-error">
          {t(integrationErrorMessage(error), errorValues(error))}
        </Alert>
      )}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setTouched(true);
          if (!problem) check.mutate();
        }}
      >
        <Stack gap="sm">
          <Group align="flex-start" gap="sm" wrap="wrap">
            <TextInput
              {...limitProps(URL_MAX, trimPasted)}
              label={t('integration.connection.url')}
              placeholder="https://hub.example.com"
              value={url}
              onChange={(e) => {
                setUrl(e.currentTarget.value);
                check.reset();
              }}
              onBlur={() => setTouched(true)}
              error={touched && url && problem ? t(problem) : undefined}
              style={{ flex: '1 1 280px' }}
              data-testid="hub-url"
            />
            <Button type="submit" variant="default" mt={{ base: 0, xs: 25 }} loading={check.isPending} data-testid="hub-check">
              {t('integration.connection.check')}
            </Button>
          </Group>
          {check.data && (
            <Group gap="xs" data-testid="hub-check-result">
              <Badge color="teal" variant="light">
                {t('integration.connection.version', { version: check.data.version })}
              </Badge>
              <Text size="sm">
                {t(check.data.registered ? 'integration.connection.registered' : 'integration.connection.not_registered')}
              </Text>
            </Group>
          )}
        </Stack>
      </form>
      {check.data && (
        <Stack gap="sm">
          <PasswordInput
            {...limitProps(SETUP_KEY_MAX, trimPasted)}
            label={t('integration.connection.setup_key')}
            description={t(
              check.data.registered ? 'integration.connection.setup_key_optional_hint' : 'integration.connection.setup_key_hint',
            )}
            value={setupKey}
            onChange={(e) => setSetupKey(e.currentTarget.value)}
            maw={420}
            data-testid="hub-setup-key"
          />
          <Group>
            <Button
              onClick={() => connect.mutate()}
              loading={connect.isPending}
              disabled={!setupKey.trim() && !check.data.registered}
              data-testid="hub-connect-submit"
            >
              {t('integration.connection.connect')}
            </Button>
          </Group>
        </Stack>
      )}
    </SectionCard>
  );
}
