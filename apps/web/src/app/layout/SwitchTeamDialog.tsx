import { Button, Group, Modal, Radio, Skeleton, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { ModalError } from '../../components/ModalError.tsx';
import { authApi } from '../../features/auth/api.ts';
import { resetLoginState } from '../../features/auth/login-state.ts';
import { useAllTeamsQuery } from '../../features/team/index.ts';
import { deviceInfo, logout } from '../../lib/auth.ts';
import { useTranslation } from '../../lib/use-translation.ts';

/**
 * Team switching (spec §4): confirm, sign out with reason team_switch, then verify the email
 * again for the chosen team.
 */
export function SwitchTeamDialog({ currentSlug, email, onClose }: { currentSlug: string; email: string; onClose: () => void }) {
  const { t } = useTranslation();
  const teams = useAllTeamsQuery();
  const others = (teams.data ?? []).filter((team) => team.team_slug !== currentSlug);
  const [picked, setChosen] = useState('');
  // One other team: it is the choice.
  const chosen = picked || (others.length === 1 ? (others[0]?.team_slug ?? '') : '');
  const switchTeam = useMutation({
    mutationFn: async () => {
      const reply = await authApi.login({ email, team_slug: chosen, device: deviceInfo() });
      // A team that offers SSO: its choice page; one that enforces it: its identity provider.
      if (reply.code === 'signin_with_sso_or_otp' || reply.code === 'sso_enforced') {
        const team = { email, team_slug: reply.team_slug, team_name: reply.team_name };
        resetLoginState({ ...team, auth: 'default', sso_configurations: reply.sso_configurations });
        if (reply.code === 'signin_with_sso_or_otp') {
          logout('team_switch', '/login/sso-otp-choice', reply.team_slug);
          return null;
        }
        // The SAML request first: if it fails, the admin stays signed in here and sees why.
        const config = reply.sso_configurations[0];
        if (!config) throw new Error('no SSO connector');
        const { redirect_url } = await authApi.ssoStart({ email, team_slug: reply.team_slug, config_uuid: config.config_uuid });
        logout('team_switch', '/login', reply.team_slug);
        window.location.assign(redirect_url);
        return null;
      }
      if (reply.code !== 'ok') throw new Error('unexpected');
      return reply;
    },
    // A code or password sign-in for the chosen team (SSO has left already).
    onSuccess: (reply) => {
      if (!reply) return;
      resetLoginState({
        email,
        team_slug: reply.team_slug,
        team_name: reply.team_name,
        auth: reply.auth_type === 'password' ? 'password' : 'default',
        otp_sent: reply.otp_sent,
        sso_configurations: reply.sso_configurations ?? [],
      });
      logout('team_switch', reply.auth_type === 'password' ? '/login/verify-password' : '/login/verify-otp', reply.team_slug);
    },
  });

  return (
    <Modal opened onClose={onClose} title={t('switch_team.title')} centered>
      <Stack gap="md">
        <ModalError error={switchTeam.error} />
        <Text size="sm">{t('switch_team.body')}</Text>
        {teams.isPending ? (
          <Skeleton h={60} />
        ) : (
          <Radio.Group value={chosen} onChange={setChosen} aria-label={t('switch_team.title')}>
            <Stack gap="xs">
              {others.map((team) => (
                <Radio key={team.team_slug} value={team.team_slug} label={team.team_name} />
              ))}
            </Stack>
          </Radio.Group>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            onClick={() => switchTeam.mutate()}
            disabled={!chosen}
            loading={switchTeam.isPending || switchTeam.isSuccess}
            data-testid="confirm-switch"
          >
            {t('switch_team.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
