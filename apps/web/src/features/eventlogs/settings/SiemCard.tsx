import { SIEM_TOOLS, type SiemToolName } from '@latchkey/contracts/client';
import { Badge, Button, Card, Group, SimpleGrid, Skeleton, Stack, Switch, Text } from '@mantine/core';
import { useState } from 'react';
import { SectionCard } from '../../../components/SectionCard.tsx';
import { DataFetchError } from '../../../components/StatusScreens.tsx';
import { useTranslation } from '../../../lib/use-translation.ts';
import { useEventLogsConfigQuery, useSiemSwitchMutation, useSiemToolQuery } from '../api.ts';
import { SiemFormModal } from '../SiemForm.tsx';
import { Destination } from './SiemDestination.tsx';

export function SiemCard() {
  const { t } = useTranslation();
  const config = useEventLogsConfigQuery();
  const tool = useSiemToolQuery();
  const toggle = useSiemSwitchMutation();
  const [editing, setEditing] = useState<SiemToolName | null>(null);
  const enabled = config.data?.siem_enabled ?? false;
  const data = tool.data?.data ?? null;
  return (
    <SectionCard
      title={t('siem.title')}
      testId="siem-card"
      action={
        config.data && (
          <Switch
            checked={enabled}
            label={t('siem.export_switch')}
            disabled={toggle.isPending}
            onChange={(e) => toggle.mutate({ action: e.currentTarget.checked ? 'enable' : 'disable' })}
            data-testid="siem-export-toggle"
          />
        )
      }
    >
      <Text size="sm" c="dimmed">
        {t('siem.description')}
      </Text>
      {tool.isError && <DataFetchError onRetry={() => void tool.refetch()} />}
      {!tool.data && !tool.isError && <Skeleton h={120} />}
      {tool.data && !data && (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm" data-testid="siem-vendors">
          {SIEM_TOOLS.map((name) => (
            <Card key={name} withBorder padding="md" radius="md">
              {/* Wraps rather than cutting the badge short: "Nicht konfiguriert" is longer than "Not configured". */}
              <Group justify="space-between" gap="xs">
                <Stack gap={2}>
                  <Text fw={500}>{t(`siem.vendor.${name}`)}</Text>
                  <Badge size="sm" variant="light" color="gray" styles={{ label: { overflow: 'visible' } }}>
                    {t('siem.status.not_configured')}
                  </Badge>
                </Stack>
                <Button
                  size="xs"
                  variant="light"
                  onClick={() => setEditing(name)}
                  style={{ flexShrink: 0 }}
                  data-testid={`siem-configure-${name}`}
                >
                  {t('siem.configure')}
                </Button>
              </Group>
            </Card>
          ))}
        </SimpleGrid>
      )}
      {data && <Destination tool={data} onEdit={() => setEditing(data.siem_tool)} />}
      {editing && <SiemFormModal tool={editing} existing={data} onClose={() => setEditing(null)} />}
    </SectionCard>
  );
}
