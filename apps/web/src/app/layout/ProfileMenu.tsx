import { CONSOLE_VERSION, type Team } from '@latchkey/contracts/client';
import { Avatar, Badge, Group, Menu, Modal, Stack, Text, UnstyledButton } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'wouter';
import { Icon } from '../../components/Icon.tsx';
import { LanguageSelect } from '../../components/LanguageSelect.tsx';
import { logout } from '../../lib/auth.ts';
import { runBeforeLogout } from '../../lib/before-logout.ts';
import { initialOf } from '../../lib/format.ts';
import { confirmLeave } from '../../lib/unsaved-changes.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { SwitchTeamDialog } from './SwitchTeamDialog.tsx';

/** The plan label of the profile menu. */
const planLabelKey = (team: Team): string => (team.team_type === 'family' ? 'plan.family' : `plan.${team.organization_type}`);

interface ProfileMenuProps {
  team: Team;
  name: string;
  email: string;
  hubVersion: string | null;
  canSwitchTeams: boolean;
}

/** The avatar's button is as round as the avatar, so its focus ring is too (the UI's round ring). */
const ROUND = { borderRadius: '50%', display: 'block' } as const;

/** Top-right profile dropdown: profile, languages, settings, switch teams, logout, plan, version (spec §2). */
export function ProfileMenu({ team, name, email, hubVersion, canSwitchTeams }: ProfileMenuProps) {
  const { t } = useTranslation();
  const [dialog, setDialog] = useState<'language' | 'switch' | 'about' | null>(null);
  const close = () => setDialog(null);
  return (
    <>
      <Menu position="bottom-end" width={260} shadow="md" withinPortal>
        <Menu.Target>
          <UnstyledButton aria-label={t('profile_menu.open')} data-testid="profile-menu" style={ROUND}>
            <Avatar color="indigo" radius="xl" size={36}>
              {initialOf(name, email)}
            </Avatar>
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown>
          {/* Who is signed in: a labelled group, the only kind of non-item content a menu may hold. */}
          <Stack gap={2} px="sm" py="xs" role="group" aria-label={name || email}>
            <Text fw={600} size="sm" truncate="end">
              {name || email}
            </Text>
            <Text size="xs" c="dimmed" truncate="end">
              {email}
            </Text>
            <Group gap={6} mt={4}>
              <Badge variant="light" size="sm" data-testid="plan-label">
                {t(planLabelKey(team))}
              </Badge>
            </Group>
          </Stack>
          <Menu.Divider />
          <Menu.Item component={Link} to="/profile" leftSection={<Icon name="user" size={16} />}>
            {t('profile_menu.profile')}
          </Menu.Item>
          <Menu.Item leftSection={<Icon name="language" size={16} />} onClick={() => setDialog('language')}>
            {t('profile_menu.languages')}
          </Menu.Item>
          <Menu.Item component={Link} to="/settings" leftSection={<Icon name="settings" size={16} />}>
            {t('profile_menu.settings')}
          </Menu.Item>
          {canSwitchTeams && (
            <Menu.Item
              leftSection={<Icon name="switch" size={16} />}
              onClick={() => void confirmLeave().then((leave) => leave && setDialog('switch'))}
              data-testid="switch-teams"
            >
              {t('profile_menu.switch_teams')}
            </Menu.Item>
          )}
          <Menu.Item leftSection={<Icon name="info" size={16} />} onClick={() => setDialog('about')}>
            {t('profile_menu.version', { version: CONSOLE_VERSION })}
          </Menu.Item>
          <Menu.Divider />
          <Menu.Item
            color="red.9"
            leftSection={<Icon name="logout" size={16} />}
            onClick={() =>
              void confirmLeave().then(async (leave) => {
                if (!leave) return;
                await runBeforeLogout();
                logout('manual_logout');
              })
            }
            data-testid="logout"
          >
            {t('profile_menu.logout')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <Modal opened={dialog === 'language'} onClose={close} title={t('language.choose')} centered>
        <LanguageSelect size="md" />
      </Modal>
      <Modal opened={dialog === 'about'} onClose={close} title={t('about.title')} centered>
        <Stack gap="xs">
          <Text size="sm">{t('about.console_version', { version: CONSOLE_VERSION })}</Text>
          <Text size="sm">{hubVersion ? t('about.hub_version', { version: hubVersion }) : t('about.no_hub')}</Text>
        </Stack>
      </Modal>
      {dialog === 'switch' && <SwitchTeamDialog currentSlug={team.team_slug} email={email} onClose={close} />}
    </>
  );
}
