import {
  DIRECTORY_INTERVALS,
  DIRECTORY_KINDS,
  DIRECTORY_PRESETS,
  DIRECTORY_SECURITY,
  type DirectoryConnection,
  type DirectoryKind,
} from '@latchkey/contracts/client';
import {
  Accordion,
  Badge,
  Button,
  Group,
  PasswordInput,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { ModalError } from '../../../components/ModalError.tsx';
import { SectionCard } from '../../../components/SectionCard.tsx';
import { useTranslation } from '../../../lib/use-translation.ts';
import { type SettingsForm, useDirectoryAction, useDirectoryTest } from '../api.ts';

type Values = Omit<SettingsForm, 'base_dns' | 'interval_minutes'> & { base_dns: string; interval: string };

const MAPPED = [
  'user_filter',
  'group_filter',
  'user_id',
  'user_email',
  'user_name',
  'user_login',
  'user_disabled',
  'group_name',
] as const;

function initialValues(c: DirectoryConnection | null): Values {
  return {
    kind: c?.kind ?? 'active_directory',
    url: c?.url ?? '',
    security: c?.security ?? 'ldaps',
    ca_pem: c?.ca_pem ?? '',
    bind_dn: c?.bind_dn ?? '',
    bind_password: '',
    base_dns: (c?.base_dns ?? []).join('\n'),
    mapping: c?.mapping ?? DIRECTORY_PRESETS.active_directory,
    remove_missing: c?.remove_missing ?? false,
    interval: c?.interval_minutes ? String(c.interval_minutes) : 'manual',
  };
}

const toForm = (v: Values): SettingsForm => ({
  ...v,
  base_dns: v.base_dns
    .split('\n')
    .map((dn) => dn.trim())
    .filter(Boolean),
  interval_minutes: v.interval === 'manual' ? null : (Number(v.interval) as SettingsForm['interval_minutes']),
});

/** The connection: address, TLS, the account to bind as, where to look and how to read it; tested before it is saved. */
export function ConnectionCard({ connection }: { connection: DirectoryConnection | null }) {
  const { t } = useTranslation();
  const test = useDirectoryTest();
  const action = useDirectoryAction();
  const form = useForm<Values>({ mode: 'controlled', initialValues: initialValues(connection) });
  const saved = connection !== null;
  const [disconnecting, setDisconnecting] = useState(false);
  // The saved password goes only to the address and account it was saved for.
  const passwordKept = saved && form.values.url === connection.url && form.values.bind_dn === connection.bind_dn;
  const choose = (kind: string) => {
    form.setFieldValue('kind', kind as DirectoryKind);
    form.setFieldValue('mapping', DIRECTORY_PRESETS[kind as DirectoryKind]);
  };
  const save = form.onSubmit((v) =>
    action.mutate(
      { kind: 'save', form: toForm(v) },
      {
        onSuccess: () => {
          form.setFieldValue('bind_password', '');
          notifications.show({ color: 'teal', message: t('directory.saved') });
        },
      },
    ),
  );
  return (
    <SectionCard title={t('directory.connection')} testId="directory-connection">
      <form onSubmit={save} noValidate>
        <Stack gap="sm">
          <ModalError error={action.variables?.kind === 'save' ? action.error : null} />
          <SegmentedControl
            value={form.values.kind}
            onChange={choose}
            fullWidth
            // At 320 px the two names share the row by wrapping, not by being cut.
            styles={{ label: { whiteSpace: 'normal' } }}
            data={DIRECTORY_KINDS.map((kind) => ({ value: kind, label: t(`directory.kind.${kind}`) }))}
            data-testid="directory-kind"
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput
              label={t('directory.field.url')}
              placeholder="ldaps://dc1.corp.example"
              maxLength={500}
              withAsterisk
              {...form.getInputProps('url')}
              data-testid="directory-url"
            />
            <Select
              label={t('directory.field.security')}
              data={DIRECTORY_SECURITY.map((s) => ({ value: s, label: t(`directory.security.${s}`) }))}
              allowDeselect={false}
              {...form.getInputProps('security')}
              data-testid="directory-security"
            />
            <TextInput
              label={t('directory.field.bind_dn')}
              maxLength={500}
              withAsterisk
              {...form.getInputProps('bind_dn')}
              data-testid="directory-bind-dn"
            />
            <PasswordInput
              label={t('directory.field.bind_password')}
              maxLength={500}
              withAsterisk={!passwordKept}
              placeholder={passwordKept ? t('directory.password_kept') : undefined}
              {...form.getInputProps('bind_password')}
              data-testid="directory-bind-password"
            />
          </SimpleGrid>
          <Textarea
            label={t('directory.field.base_dns')}
            maxLength={2_600}
            description={t('directory.field.base_dns_hint')}
            autosize
            minRows={2}
            withAsterisk
            {...form.getInputProps('base_dns')}
            data-testid="directory-base-dns"
          />
          <Textarea
            label={t('directory.field.ca_pem')}
            maxLength={20_000}
            description={t('directory.field.ca_pem_hint')}
            autosize
            minRows={2}
            maxRows={6}
            styles={{ input: { fontFamily: 'monospace', fontSize: 12 } }}
            {...form.getInputProps('ca_pem')}
            data-testid="directory-ca"
          />
          <Accordion variant="contained">
            <Accordion.Item value="mapping">
              <Accordion.Control>{t('directory.mapping')}</Accordion.Control>
              <Accordion.Panel>
                <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                  {MAPPED.map((field) => (
                    <TextInput
                      key={field}
                      label={t(`directory.map.${field}`)}
                      maxLength={field.endsWith('_filter') ? 1_000 : 100}
                      {...form.getInputProps(`mapping.${field}`)}
                    />
                  ))}
                </SimpleGrid>
              </Accordion.Panel>
            </Accordion.Item>
          </Accordion>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <Select
              label={t('directory.field.schedule')}
              data={[
                { value: 'manual', label: t('directory.schedule.manual') },
                ...DIRECTORY_INTERVALS.map((m) => ({ value: String(m), label: t(`directory.schedule.${m}`) })),
              ]}
              allowDeselect={false}
              {...form.getInputProps('interval')}
              data-testid="directory-schedule"
            />
            <Switch
              mt={{ sm: 28 }}
              label={t('directory.field.remove_missing')}
              description={t('directory.field.remove_missing_hint')}
              {...form.getInputProps('remove_missing', { type: 'checkbox' })}
              data-testid="directory-remove-missing"
            />
          </SimpleGrid>
          <ModalError error={test.error} />
          {test.data && (
            <Stack gap={6} data-testid="directory-test-result">
              <Text size="sm" fw={500}>
                {t('directory.test_found', { users: test.data.users, groups: test.data.groups })}
              </Text>
              <Table.ScrollContainer minWidth={360}>
                <Table fz="sm" striped>
                  <Table.Tbody>
                    {test.data.samples.map((s) => (
                      <Table.Tr key={s.id}>
                        <Table.Td>{s.name}</Table.Td>
                        <Table.Td style={{ overflowWrap: 'anywhere' }}>{s.email ?? t('directory.no_email')}</Table.Td>
                        <Table.Td>
                          {s.disabled && (
                            <Badge size="sm" color="gray" variant="light">
                              {t('directory.disabled')}
                            </Badge>
                          )}
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            </Stack>
          )}
          <Group justify="flex-end" gap="sm">
            {saved && (
              <Button variant="subtle" color="red" onClick={() => setDisconnecting(true)} data-testid="directory-disconnect">
                {t('directory.disconnect')}
              </Button>
            )}
            <Button
              variant="default"
              loading={test.isPending}
              onClick={() => test.mutate(toForm(form.values))}
              data-testid="directory-test"
            >
              {t('directory.test')}
            </Button>
            <Button type="submit" loading={action.isPending && action.variables?.kind === 'save'} data-testid="directory-save">
              {t('common.save')}
            </Button>
          </Group>
        </Stack>
      </form>
      {disconnecting && (
        <ConfirmDialog
          title={t('directory.disconnect')}
          action={t('directory.disconnect')}
          pending={action.isPending}
          error={action.variables?.kind === 'delete' ? action.error : null}
          onConfirm={() => action.mutate({ kind: 'delete' }, { onSuccess: () => setDisconnecting(false) })}
          onClose={() => setDisconnecting(false)}
        >
          {t('directory.disconnect_question')}
        </ConfirmDialog>
      )}
    </SectionCard>
  );
}
