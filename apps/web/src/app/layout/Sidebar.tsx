import { type AccessContext, isRestricted, ONBOARDING_STAGES, type OnboardingStage, type Team } from '@latchkey/contracts/client';
import { Box, NavLink, Stack, Text, Tooltip } from '@mantine/core';
import { Link as RouterLink, useLocation } from 'wouter';
import { Icon } from '../../components/Icon.tsx';
import { useWizardUpdate } from '../../features/onboarding/api.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import {
  canResumeOnboarding,
  disabledReason,
  HUB_NAV,
  hubHasServices,
  isCurrent,
  isVisible,
  MAIN_NAV,
  type NavItem,
  SETTINGS_NAV,
} from './sidebar-nav.ts';

const resumeStage = (stage: string): OnboardingStage =>
  (ONBOARDING_STAGES as readonly string[]).includes(stage) ? (stage as OnboardingStage) : 'welcome';

interface SidebarProps {
  ctx: AccessContext;
  team: Team;
  hubVersion: string | null;
  onNavigate: () => void;
}

/** The console's sections (spec §2 Layout), each shown, hidden or disabled by the live access context. */
export function Sidebar({ ctx, team, hubVersion, onNavigate }: SidebarProps) {
  const { t } = useTranslation();
  const [pathname, navigate] = useLocation();
  const resume = useWizardUpdate();
  const hubItems = HUB_NAV.filter((item) => isVisible(item, ctx));

  const item = (nav: NavItem, extra?: React.ReactNode) => {
    const reason = disabledReason(nav, ctx, hubVersion);
    const active = isCurrent(nav, pathname);
    const link = (
      <NavLink
        key={nav.to}
        component={RouterLink}
        to={nav.to}
        label={t(nav.labelKey)}
        leftSection={<Icon name={nav.icon} />}
        rightSection={extra}
        active={active}
        disabled={reason !== null}
        aria-disabled={reason !== null}
        onClick={(e) => (reason ? e.preventDefault() : onNavigate())}
        data-testid={`nav-${nav.to.slice(1)}`}
        styles={{ root: { borderRadius: 'var(--mantine-radius-md)' } }}
      />
    );
    return reason ? (
      <Tooltip key={nav.to} label={t(reason.key, reason.values)} position="right" withArrow>
        <div>{link}</div>
      </Tooltip>
    ) : (
      link
    );
  };

  const dot = hubHasServices(ctx) ? (
    <Box
      w={8}
      h={8}
      bg="green.6"
      style={{ borderRadius: '50%' }}
      aria-label={t('nav.hub_services_running')}
      role="img"
      data-testid="integration-dot"
    />
  ) : null;

  return (
    // Native scrolling: Mantine's ScrollArea measured itself on every render (forced layouts, ~25 ms
    // of a cold load).
    <Box h="100%" style={{ overflowY: 'auto' }}>
      <Stack gap={2} p="sm" component="nav" aria-label={t('nav.label')}>
        {canResumeOnboarding(team, isRestricted(ctx.scopes)) && (
          <NavLink
            component="button"
            type="button"
            label={t('nav.resume_onboarding')}
            leftSection={<Icon name="onboarding" />}
            color="green"
            variant="light"
            active
            disabled={resume.isPending}
            onClick={() => {
              // Back into the wizard (spec §4): it shows again once resume_notification is off.
              resume.mutate(
                {
                  show: true,
                  enable_console: false,
                  resume_notification: false,
                  stage: resumeStage(team.onboarding_wizard.state.stage),
                },
                {
                  onSuccess: () => {
                    onNavigate();
                    navigate('/');
                  },
                },
              );
            }}
            data-testid="nav-resume-onboarding"
            styles={{ root: { borderRadius: 'var(--mantine-radius-md)' } }}
          />
        )}
        {MAIN_NAV.filter((nav) => isVisible(nav, ctx)).map((nav) => item(nav))}
        {hubItems.length > 0 && (
          <>
            <Text size="xs" fw={600} c="dimmed" tt="uppercase" px="sm" pt="md" pb={4}>
              {t('nav.hub')}
            </Text>
            {hubItems.map((nav) => item(nav, nav.to === '/integration' ? dot : undefined))}
          </>
        )}
        {isVisible(SETTINGS_NAV, ctx) && <Box pt="md">{item(SETTINGS_NAV)}</Box>}
      </Stack>
    </Box>
  );
}
