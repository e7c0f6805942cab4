import { Grid, Stack } from '@mantine/core';
import { useConsoleContext } from '../../lib/console-context.ts';
import { AdoptionCard } from './AdoptionCard.tsx';
import { BillingNotice } from './BillingNotice.tsx';
import { FamilyLicenceCards, LicenceCard } from './LicenceCards.tsx';
import { ProvisioningCard } from './ProvisioningCard.tsx';
import { ShortcutCards } from './ShortcutCards.tsx';
import { TeamInfoCard } from './TeamInfoCard.tsx';
import { TrialNotice } from './TrialNotice.tsx';

/** The dashboard (spec §4): team, licences, adoption and provisioning, shortcuts; a family sees its licence counts instead. */
export function Dashboard() {
  const { team } = useConsoleContext();
  const family = team.team_type === 'family';
  return (
    <Stack gap="lg" data-testid="dashboard">
      <TrialNotice />
      <BillingNotice />
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
