import { Button, Card, Code, CopyButton, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from '../../../lib/use-translation.ts';
import { useSsoConfigsQuery } from '../api.ts';

function CopyField({ label, value, testId }: { label: string; value: string; testId: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <Code
          block
          style={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere', whiteSpace: 'pre-wrap', maxHeight: 120, overflowY: 'auto' }}
          // A scrolling box (the certificate) must be reachable by keyboard to be read.
          tabIndex={0}
          aria-label={label}
          data-testid={testId}
        >
          {value}
        </Code>
        <CopyButton value={value} timeout={2000}>
          {({ copied, copy }) => (
            <Button size="xs" variant="default" onClick={copy}>
              {t(copied ? 'sso.copied' : 'sso.copy')}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}

export function ServiceProviderCard() {
  const { t } = useTranslation();
  const configs = useSsoConfigsQuery();
  const sp = configs.data?.service_provider;
  const download = () => {
    if (!sp) return;
    const url = URL.createObjectURL(new Blob([sp.metadata_xml], { type: 'application/samlmetadata+xml' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = 'latchkey-sp-metadata.xml';
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <Card withBorder radius="md" padding="lg" data-testid="sso-sp">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4">
            {t('sso.sp_title')}
          </Title>
          <Button variant="default" onClick={download} disabled={!sp} data-testid="sso-sp-download">
            {t('sso.sp_download')}
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          {t('sso.sp_hint')}
        </Text>
        {sp ? (
          <>
            <CopyField label={t('sso.entity_id')} value={sp.entity_id} testId="sso-sp-entity" />
            <CopyField label={t('sso.acs_url')} value={sp.acs_url} testId="sso-sp-acs" />
            <CopyField label={t('sso.certificate')} value={sp.certificate.trim()} testId="sso-sp-cert" />
          </>
        ) : (
          <Skeleton h={120} />
        )}
      </Stack>
    </Card>
  );
}
