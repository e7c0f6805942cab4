import type { ScimIdp } from '@latchkey/contracts/client';
import { Alert, Button, Group, List, Modal, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from '../../../lib/use-translation.ts';
import { stepKeys } from '../idp-steps.ts';
import { CopyField } from './CopyField.tsx';

/** The token, once, with the tenant URL and the identity provider's setup steps. */
export function TokenDialog({
  idp,
  token,
  tenantUrl,
  rotated,
  onClose,
}: {
  idp: ScimIdp;
  token: string;
  tenantUrl: string;
  rotated: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal opened onClose={onClose} title={t(rotated ? 'scim.token.rotated_title' : 'scim.token.title')} centered size="lg">
      <Stack gap="md" data-testid="scim-token-dialog">
        <Alert color="yellow">{t('scim.token.once')}</Alert>
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {t('scim.tenant_url')}
          </Text>
          <CopyField value={tenantUrl} testId="scim-token-tenant-url" />
        </Stack>
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {t('scim.token')}
          </Text>
          <CopyField value={token} testId="scim-token" />
        </Stack>
        <Stack gap={4}>
          <Title order={3} size="h5">
            {t('scim.steps.title', { idp: t(`scim.idp.${idp}`) })}
          </Title>
          <List type="ordered" size="sm" spacing={4} data-testid="scim-steps">
            {stepKeys(idp).map((key) => (
              <List.Item key={key}>{t(key)}</List.Item>
            ))}
          </List>
        </Stack>
        <Group justify="flex-end">
          <Button onClick={onClose} data-testid="scim-token-done">
            {t('scim.token.done')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
