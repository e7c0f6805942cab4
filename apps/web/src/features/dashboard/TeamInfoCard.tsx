import { Button, Group, Modal, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'wouter';
import { ModalError } from '../../components/ModalError.tsx';
import { useConsoleContext } from '../../lib/console-context.ts';
import { formatNumber } from '../../lib/format.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { TeamLogo, useLogoQuery } from '../branding/index.ts';
import { useRenameTeamMutation } from '../team/index.ts';
import { DashCard } from './DashCard.tsx';
/** Team name or the logo prompt, total users, the logo button to branding (inert when restricted). */
export function TeamInfoCard() {
  const { t } = useTranslation();
  const { team, restricted } = useConsoleContext();
  const [rename, setRename] = useState(false);
  const initial = (team.team_name.trim()[0] ?? '?').toUpperCase();
  const uploaded = useLogoQuery().data;
  const logo = (
    <TeamLogo
      height={44}
      testId="dashboard-logo"
      fallback={
        <Text fw={700} size="xl" c="indigo.7" aria-hidden>
          {initial}
        </Text>
      }
    />
  );
  // An uploaded logo keeps its own shape (up to 160 px wide); the prompt is a dashed square.
  const logoBox = {
    w: uploaded ? undefined : 56,
    h: 56,
    style: {
      borderRadius: 12,
      display: 'grid',
      placeItems: 'center',
      minWidth: 56,
      maxWidth: 160,
      overflow: 'hidden',
      padding: uploaded ? 6 : 0,
      background: uploaded ? 'var(--mantine-color-white)' : 'var(--mantine-color-indigo-0)',
      border: uploaded ? '1px solid var(--mantine-color-gray-3)' : '1px dashed var(--mantine-color-indigo-3)',
    },
  };
  return (
    <DashCard title={t('dashboard.team_info')} testId="team-info-card">
      <Group wrap="nowrap" gap="md" align="center">
        {restricted ? (
          <div {...logoBox} data-testid="logo-button" aria-disabled="true">
            {logo}
          </div>
        ) : (
          <UnstyledButton
            component={Link}
            href="/settings/organization-branding"
            aria-label={t('dashboard.upload_logo')}
            data-testid="logo-button"
            {...logoBox}
          >
            {logo}
          </UnstyledButton>
        )}
        <Stack gap={2} miw={0}>
          <Text fw={600} size="lg" style={{ overflowWrap: 'anywhere' }} data-testid="dashboard-team-name">
            {team.team_name}
          </Text>
          {!restricted && !uploaded && (
            <Text size="sm" c="dimmed">
              {t('dashboard.upload_logo_prompt')}
            </Text>
          )}
          <Text size="sm" data-testid="total-users">
            {t('dashboard.total_users', { n: formatNumber(team.total_users) })}
          </Text>
        </Stack>
      </Group>
      {team.team_type === 'family' && !restricted && (
        <Button variant="light" size="xs" mt="md" w="fit-content" onClick={() => setRename(true)} data-testid="rename-family">
          {t('dashboard.rename_family')}
        </Button>
      )}
      {rename && <RenameFamilyModal current={team.team_name} onClose={() => setRename(false)} />}
    </DashCard>
  );
}

function RenameFamilyModal({ current, onClose }: { current: string; onClose: () => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState(current);
  const [touched, setTouched] = useState(false);
  const rename = useRenameTeamMutation();
  const invalid = name.trim() === '';
  const submit = () => {
    setTouched(true);
    if (invalid) return;
    rename.mutate(name.trim(), { onSuccess: onClose });
  };
  return (
    <Modal opened onClose={onClose} title={t('dashboard.rename_family_title')} centered>
      <Stack gap="md">
        <ModalError error={rename.error} />
        <form
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <TextInput
            label={t('dashboard.family_name')}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            onBlur={() => setTouched(true)}
            error={touched && invalid ? t('family name compulsory') : undefined}
            maxLength={100}
            data-autofocus
          />
          <Group justify="flex-end" mt="lg">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={rename.isPending} disabled={name.trim() === current}>
              {t('common.save')}
            </Button>
          </Group>
        </form>
      </Stack>
    </Modal>
  );
}
