import { canAccess, RULES } from '@latchkey/contracts/client';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Grid,
  Group,
  Modal,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { type ReactNode, useEffect, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { ModalError } from '../../components/ModalError.tsx';
import { DataFetchError } from '../../components/StatusScreens.tsx';
import { trackInteraction } from '../../lib/analytics.ts';
import { useConsoleContext } from '../../lib/console-context.ts';
import { formatNumber, formatPercent } from '../../lib/format.ts';
import { useSession } from '../../lib/session.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { TeamLogo, useLogoQuery } from '../branding/index.ts';
import { useRenameTeamMutation } from '../team/index.ts';
import { useActivityQuery, useAuthTypeQuery, useLicenceSummaryQuery, useNotificationQuery, useProvisioningQuery } from './api.ts';
import { ProvisioningChart } from './Charts.tsx';
import { gaugeLabelKey, gaugePercent, rememberTrialPopup, shouldShowTrialPopup, trialLevel } from './rules.ts';

/** Adoption categories and their colours (spec §9): green, amber, red. */
const ADOPTION = [
  { usage: 'active', stat: 'active_members', color: 'var(--mantine-color-teal-6)', key: 'dashboard.adoption.active' },
  { usage: 'inactive', stat: 'inactive_members', color: 'var(--mantine-color-yellow-5)', key: 'dashboard.adoption.inactive' },
  {
    usage: 'unresponsive',
    stat: 'unresponsive_members',
    color: 'var(--mantine-color-red-6)',
    key: 'dashboard.adoption.unresponsive',
  },
] as const;

export function Dashboard() {
  const { team } = useConsoleContext();
  const family = team.team_type === 'family';
  return (
    <Stack gap="lg" data-testid="dashboard">
      <TrialNotice />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: family ? 12 : 4 }}>
          <TeamInfoCard />
        </Grid.Col>
        {!family && (
          <Grid.Col span={{ base: 12, md: 8 }}>
            <LicenceCard />
          </Grid.Col>
        )}
      </Grid>
      {family ? (
        <FamilyLicenceCards />
      ) : (
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, md: 4 }}>
            <AdoptionCard />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 8 }}>
            <ProvisioningCard />
          </Grid.Col>
        </Grid>
      )}
      <ShortcutCards />
    </Stack>
  );
}

function DashCard({ title, children, testId }: { title: string; children: ReactNode; testId: string }) {
  return (
    <Card withBorder radius="md" padding="lg" h="100%" data-testid={testId}>
      <Title order={2} size="h5" mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  );
}

/** Team name or the logo prompt, total users, the logo button to branding (inert when restricted). */
function TeamInfoCard() {
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
          <Text fw={600} size="lg" truncate="end" data-testid="dashboard-team-name">
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

/** A read-only 280° arc, 110 px, the percentage in the middle (spec §9). */
export function Gauge({ percent, label }: { percent: number; label: string }) {
  const r = 47;
  const circumference = 2 * Math.PI * r;
  const arc = (280 / 360) * circumference;
  const common = {
    cx: 55,
    cy: 55,
    r,
    fill: 'none',
    strokeWidth: 10,
    strokeLinecap: 'round' as const,
    transform: 'rotate(130 55 55)',
  };
  return (
    <svg width={110} height={110} viewBox="0 0 110 110" role="img" aria-label={label} data-testid="licence-gauge">
      <circle {...common} stroke="var(--mantine-color-gray-2)" strokeDasharray={`${arc} ${circumference}`} />
      <circle {...common} stroke="var(--mantine-color-indigo-6)" strokeDasharray={`${(arc * percent) / 100} ${circumference}`} />
      <text x="55" y="60" textAnchor="middle" fontSize="20" fontWeight={700} fill="currentColor">
        {formatPercent(percent / 100)}
      </text>
    </svg>
  );
}

function LicenceCard() {
  const { t } = useTranslation();
  const summary = useLicenceSummaryQuery();
  return (
    <DashCard title={t('dashboard.licences')} testId="licence-card">
      {summary.isError ? (
        <DataFetchError onRetry={() => void summary.refetch()} />
      ) : !summary.data ? (
        <Group gap="lg">
          <Skeleton circle h={110} w={110} />
          <Stack gap="xs">
            <Skeleton h={16} w={160} />
            <Skeleton h={16} w={120} />
          </Stack>
        </Group>
      ) : (
        <Group gap="xl" wrap="nowrap">
          <Gauge percent={gaugePercent(summary.data)} label={t(gaugeLabelKey(summary.data))} />
          <Stack gap={4}>
            <Text fw={600}>{t(gaugeLabelKey(summary.data))}</Text>
            <Text size="sm" data-testid="licence-figures">
              {summary.data.total_subscriptions < 0
                ? t('dashboard.licences_unlimited', { used: formatNumber(summary.data.active_subscriptions) })
                : t('dashboard.licences_used_of', {
                    used: formatNumber(summary.data.active_subscriptions),
                    total: formatNumber(summary.data.total_subscriptions),
                  })}
            </Text>
          </Stack>
        </Group>
      )}
    </DashCard>
  );
}

/** A donut whose segments are links to /users with the usage filter preset (spec §2). */
function AdoptionCard() {
  const { t } = useTranslation();
  const stats = useActivityQuery();
  const [, navigate] = useLocation();
  if (stats.isError) {
    return (
      <DashCard title={t('dashboard.adoption')} testId="adoption-card">
        <DataFetchError onRetry={() => void stats.refetch()} />
      </DashCard>
    );
  }
  if (!stats.data) {
    return (
      <DashCard title={t('dashboard.adoption')} testId="adoption-card">
        <Stack align="center" gap="md" data-testid="adoption-skeleton">
          <Skeleton circle h={160} w={160} />
          <Skeleton h={14} w="80%" />
          <Skeleton h={14} w="70%" />
        </Stack>
      </DashCard>
    );
  }
  const data = stats.data;
  const total = ADOPTION.reduce((n, a) => n + data[a.stat], 0);
  const r = 60;
  const c = 2 * Math.PI * r;
  let offset = 0;
  const open = (usage: string) => {
    trackInteraction('dashboard', `adoption_${usage}`);
    navigate(`/users?app_usage=${usage}`);
  };
  return (
    <DashCard title={t('dashboard.adoption')} testId="adoption-card">
      <Stack align="center" gap="md">
        <svg width={170} height={170} viewBox="0 0 170 170" aria-hidden>
          {ADOPTION.map((a) => {
            const length = total > 0 ? (data[a.stat] / total) * c : 0;
            const segment = (
              // biome-ignore lint/a11y/noStaticElementInteractions: a pointer shortcut; the legend links below are the keyboard and screen-reader way in
              <circle
                key={a.usage}
                cx={85}
                cy={85}
                r={r}
                fill="none"
                stroke={a.color}
                strokeWidth={22}
                strokeDasharray={`${length} ${c - length}`}
                strokeDashoffset={-offset}
                transform="rotate(-90 85 85)"
                style={{ cursor: 'pointer' }}
                onClick={() => open(a.usage)}
              />
            );
            offset += length;
            return segment;
          })}
          <text x="85" y="82" textAnchor="middle" fontSize="22" fontWeight={700} fill="currentColor">
            {formatNumber(total)}
          </text>
          <text x="85" y="102" textAnchor="middle" fontSize="11" fill="var(--mantine-color-dimmed)">
            {t('dashboard.members')}
          </text>
        </svg>
        {/* The text equivalent, and the keyboard way in: one link per segment. */}
        <Stack gap={6} w="100%">
          {ADOPTION.map((a) => (
            <Anchor
              key={a.usage}
              href={`#/users?app_usage=${a.usage}`}
              onClick={(e) => {
                e.preventDefault();
                open(a.usage);
              }}
              underline="hover"
              c="inherit"
              data-testid={`adoption-${a.usage}`}
            >
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <Group gap={8} wrap="nowrap">
                  <span style={{ width: 10, height: 10, borderRadius: 5, background: a.color, flex: 'none' }} />
                  <Text size="sm">{t(a.key)}</Text>
                </Group>
                <Text size="sm" fw={600}>
                  {formatNumber(data[a.stat])} · {formatPercent(total > 0 ? data[a.stat] / total : 0)}
                </Text>
              </Group>
            </Anchor>
          ))}
        </Stack>
      </Stack>
    </DashCard>
  );
}

function ProvisioningCard() {
  const { t } = useTranslation();
  const provisioning = useProvisioningQuery();
  const chartSkeleton = <Skeleton h={240} data-testid="provisioning-skeleton" />;
  return (
    <DashCard title={t('dashboard.provisioning')} testId="provisioning-card">
      {provisioning.isError ? (
        <DataFetchError onRetry={() => void provisioning.refetch()} />
      ) : !provisioning.data ? (
        chartSkeleton
      ) : (
        <>
          <div aria-hidden>
            <ProvisioningChart data={provisioning.data} />
          </div>
          <table className="visually-hidden" style={visuallyHidden}>
            <caption>{t('dashboard.provisioning')}</caption>
            <tbody>
              {provisioning.data.map((d) => (
                <tr key={d.date}>
                  <th scope="row">{`${d.year}-${d.month}`}</th>
                  <td>{t('dashboard.onboarded_n', { n: formatNumber(d.onboarded) })}</td>
                  <td>{t('dashboard.deboarded_n', { n: formatNumber(d.deboarded) })}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </DashCard>
  );
}

const visuallyHidden = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

function FamilyLicenceCards() {
  const { t } = useTranslation();
  const summary = useLicenceSummaryQuery();
  if (summary.isError) return <DataFetchError onRetry={() => void summary.refetch()} />;
  const s = summary.data;
  const unlimited = s ? s.total_subscriptions < 0 : false;
  const cards = [
    { key: 'dashboard.family_total', value: s ? (unlimited ? '–' : formatNumber(s.total_subscriptions)) : null },
    { key: 'dashboard.family_used', value: s ? formatNumber(s.active_subscriptions) : null },
    {
      key: 'dashboard.family_available',
      value: s ? (unlimited ? '–' : formatNumber(Math.max(0, s.total_subscriptions - s.active_subscriptions))) : null,
    },
  ];
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg" data-testid="family-licence-cards">
      {cards.map((c) => (
        <Card key={c.key} withBorder radius="md" padding="lg">
          <Text size="sm" c="dimmed">
            {t(c.key)}
          </Text>
          {c.value === null ? (
            <Skeleton h={28} w={60} mt={6} />
          ) : (
            <Text fw={700} size="xl" mt={4}>
              {c.value}
            </Text>
          )}
        </Card>
      ))}
    </SimpleGrid>
  );
}

/** Set-password card (account type default: no password yet) and the organisation policy card. */
function ShortcutCards() {
  const { t } = useTranslation();
  const { ctx } = useConsoleContext();
  const auth = useAuthTypeQuery();
  const showPassword = auth.data ? !auth.data.has_password : false;
  const showPolicy = canAccess(RULES.policies, ctx);
  // Both cards at once, when the account type is known: the set-password card arriving later
  // would move the policy card aside (a layout shift, issue 17).
  if (auth.isPending || (!showPassword && !showPolicy)) return null;
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
      {showPassword && (
        <Card withBorder radius="md" padding="lg" data-testid="set-password-card">
          <Text fw={600}>{t('dashboard.set_password_title')}</Text>
          <Text size="sm" c="dimmed" mt={4} mb="md">
            {t('dashboard.set_password_body')}
          </Text>
          <Button component={Link} href="/settings/account-security" variant="light" w="fit-content">
            {t('dashboard.set_password_action')}
          </Button>
        </Card>
      )}
      {showPolicy && (
        <Card withBorder radius="md" padding="lg" data-testid="policy-card">
          <Text fw={600}>{t('dashboard.policy_title')}</Text>
          <Text size="sm" c="dimmed" mt={4} mb="md">
            {t('dashboard.policy_body')}
          </Text>
          <Button component={Link} href="/policies" variant="light" w="fit-content">
            {t('dashboard.policy_action')}
          </Button>
        </Card>
      )}
    </SimpleGrid>
  );
}

const TRIAL_COLORS = { info: 'blue', warning: 'yellow', today: 'yellow', expired: 'red' } as const;

/** The trial banner linking to /billing, and the expiry popup at 0–3 days once a day (spec §2, §4). */
function TrialNotice() {
  const { t } = useTranslation();
  const notice = useNotificationQuery();
  const team = useSession()?.team_slug ?? '';
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
