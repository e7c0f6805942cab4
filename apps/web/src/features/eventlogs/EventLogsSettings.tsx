import { Stack } from '@mantine/core';
import { useAuxServicesQuery } from '../team/index.ts';
import { PullTokenCard } from './settings/PullTokenCard.tsx';
import { RetentionCard } from './settings/RetentionCard.tsx';
import { ServiceCard } from './settings/ServiceCard.tsx';
import { SiemCard } from './settings/SiemCard.tsx';

/** /settings/eventlogs: the service switch (reachable while off), retention (self-hosted) and SIEM export. */
export function EventLogsSettings() {
  const services = useAuxServicesQuery();
  const hub = services.data?.[0];
  const on = Boolean(hub?.services.audit_logs?.enabled);
  return (
    <Stack gap="lg" data-testid="eventlogs-settings">
      <ServiceCard credentialId={hub?.credential_id ?? ''} on={on} loading={services.isLoading} />
      {on && <RetentionCard />}
      {on && <SiemCard />}
      {on && <PullTokenCard />}
    </Stack>
  );
}
