import {
  QRADAR_TRANSPORTS,
  SIEM_SECRET_MAX,
  type SiemTool,
  type SiemToolName,
  siemSecretMoved,
} from '@latchkey/contracts/client';
import { Button, Checkbox, CopyButton, Group, Modal, PasswordInput, Radio, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { ModalError } from '../../components/ModalError.tsx';
import { limitProps, trimPasted } from '../../lib/limits.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { useSiemConfigureMutation } from './api.ts';
import { fieldProblem, fieldsFor, newSigningSecret, OPTIONAL, SECRETS, type Values } from './siem-fields.ts';

/** The SIEM form (spec §5): required fields, URL and port checks; save only when valid and, editing, changed. */
export function SiemFormModal({
  tool,
  existing,
  onClose,
}: {
  tool: SiemToolName;
  existing: SiemTool | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const configure = useSiemConfigureMutation();
  const editing = existing?.siem_tool === tool ? existing : null;
  const initial: Values = {
    api: 'logs_ingestion',
    // A QRadar destination saved before the choice existed used syslog; a new one starts on the HTTP Receiver (https).
    transport: editing?.siem_tool === 'qradar' ? 'syslog' : 'http_receiver',
    url: '',
    port: '',
    path: '',
    token: '',
    // A new webhook gets a signing secret made here, shown while the form is open; an edit keeps the stored one.
    signing_secret: editing ? '' : newSigningSecret(),
    workspace_id: '',
    key: '',
    log_source_identifier: '',
    tenant_id: '',
    client_id: '',
    client_secret: '',
    dce_endpoint: '',
    dcr_immutable_id: '',
    stream_name: '',
    allow_unverified_certificate: false,
    // A Sentinel destination saved before the choice existed used the Data Collector API.
    ...(editing?.siem_tool === 'azure_sentinel' ? { api: 'data_collector' as const } : {}),
    ...(editing?.config as Partial<Values> | undefined),
  };
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: initial,
    validateInputOnBlur: true,
    validate: (v) => {
      const errors: Partial<Record<keyof Values, string | null>> = {};
      for (const f of fieldsFor(tool, v.api)) {
        if (OPTIONAL.includes(f)) continue;
        const problem = secretKept(f, v) ? null : fieldProblem(tool, f, v);
        errors[f] = problem && secretAgain(f, v) ? 'siem.form.secret_again' : problem;
      }
      return errors;
    },
  });
  // A secret left empty while editing the same API keeps the stored one, unless the edit moves where it goes.
  const stored = (f: keyof Values) => SECRETS.includes(f) && Boolean(editing?.has_secret);
  const moved = (v: Values) => editing !== null && siemSecretMoved(tool, editing.config, v);
  const secretKept = (f: keyof Values, v = form.values) =>
    stored(f) && !moved(v) && (tool !== 'azure_sentinel' || v.api === initial.api);
  /** A stored secret the edit moved: the field asks for it again, and says why. */
  const secretAgain = (f: keyof Values, v = form.values) => stored(f) && moved(v);
  const fields = fieldsFor(tool, form.values.api);
  const valid = fields.every((f) => OPTIONAL.includes(f) || secretKept(f) || fieldProblem(tool, f, form.values) === null);
  const changed = !editing || fields.some((f) => form.values[f] !== initial[f]);
  const err = (f: keyof Values) => {
    const e = form.errors[f];
    return typeof e === 'string' ? t(e) : undefined;
  };
  const submit = form.onSubmit((v) => {
    const body = Object.fromEntries(
      fieldsFor(tool, v.api).map((f) => [f, typeof v[f] === 'string' ? (v[f] as string).trim() : v[f]]),
    );
    configure.mutate({ siem_tool: tool, ...(editing ? { id: editing.id } : {}), ...body } as never, {
      onSuccess: () => {
        notifications.show({ color: 'teal', message: t('siem.form.saved') });
        onClose();
      },
    });
  });
  const text = (f: keyof Values, props: { required?: boolean; placeholder?: string; maxLength?: number } = {}) =>
    fields.includes(f) && (
      <TextInput
        label={t(`siem.field.${f}`)}
        withAsterisk={props.required ?? true}
        placeholder={props.placeholder}
        maxLength={props.maxLength}
        {...form.getInputProps(f)}
        error={err(f)}
        data-testid={`siem-${f}`}
      />
    );
  const secret = (f: keyof Values) =>
    fields.includes(f) && (
      <PasswordInput
        {...limitProps(SIEM_SECRET_MAX, trimPasted)}
        label={t(`siem.field.${f}`)}
        withAsterisk={!secretKept(f)}
        placeholder={secretKept(f) ? t('siem.form.secret_kept') : undefined}
        description={secretAgain(f) ? t('siem.form.secret_again') : undefined}
        {...form.getInputProps(f)}
        error={err(f)}
        data-testid={`siem-${f}`}
      />
    );
  return (
    <Modal
      opened
      onClose={onClose}
      title={t(editing ? 'siem.form.edit_title' : 'siem.form.title', { vendor: t(`siem.vendor.${tool}`) })}
      centered
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="sm" data-testid="siem-form">
          <ModalError error={configure.error} />
          {fields.includes('api') && (
            <Radio.Group
              label={t('siem.field.api')}
              description={t(`siem.api.${form.values.api}_hint`)}
              {...form.getInputProps('api')}
              data-testid="siem-api"
            >
              <Stack gap={6} mt={6}>
                {(['logs_ingestion', 'data_collector'] as const).map((api) => (
                  <Radio key={api} value={api} label={t(`siem.api.${api}`)} />
                ))}
              </Stack>
            </Radio.Group>
          )}
          {text('tenant_id')}
          {text('client_id')}
          {secret('client_secret')}
          {text('dce_endpoint', { placeholder: 'https://my-dce.eastus-1.ingest.monitor.azure.com' })}
          {text('dcr_immutable_id', { placeholder: 'dcr-00000000000000000000000000000000' })}
          {text('stream_name', { placeholder: 'Custom-LatchkeyEvents_CL' })}
          {fields.includes('transport') && (
            <Radio.Group
              label={t('siem.field.transport')}
              description={t(`siem.transport.${form.values.transport}_hint`)}
              {...form.getInputProps('transport')}
              data-testid="siem-transport"
            >
              <Stack gap={6} mt={6}>
                {QRADAR_TRANSPORTS.map((transport) => (
                  <Radio key={transport} value={transport} label={t(`siem.transport.${transport}`)} />
                ))}
              </Stack>
            </Radio.Group>
          )}
          {text('url', {
            placeholder:
              tool !== 'qradar'
                ? 'https://'
                : form.values.transport === 'syslog'
                  ? 'tls://qradar.example.com:6514'
                  : 'https://qradar.example.com:12469',
          })}
          {text('port', { maxLength: 5, placeholder: '8088' })}
          {text('path', { required: false, placeholder: '/services/collector/event' })}
          {text('workspace_id')}
          {text('log_source_identifier')}
          {secret('token')}
          {fields.includes('signing_secret') && (
            <Stack gap={4}>
              <PasswordInput
                {...limitProps(SIEM_SECRET_MAX, trimPasted)}
                label={t('siem.field.signing_secret')}
                withAsterisk={!secretKept('signing_secret')}
                defaultVisible={!editing}
                placeholder={secretKept('signing_secret') ? t('siem.form.secret_kept') : undefined}
                description={t(secretAgain('signing_secret') ? 'siem.form.secret_again' : 'siem.form.signing_secret_hint')}
                {...form.getInputProps('signing_secret')}
                error={err('signing_secret')}
                data-testid="siem-signing_secret"
              />
              <Group gap="xs">
                <Button
                  variant="subtle"
                  size="compact-sm"
                  onClick={() => form.setFieldValue('signing_secret', newSigningSecret())}
                  data-testid="siem-signing_secret-generate"
                >
                  {t('siem.form.generate')}
                </Button>
                {form.values.signing_secret && (
                  <CopyButton value={form.values.signing_secret}>
                    {({ copied, copy }) => (
                      <Button variant="subtle" size="compact-sm" onClick={copy}>
                        {t(copied ? 'eventlogs.pull.copied' : 'eventlogs.pull.copy')}
                      </Button>
                    )}
                  </CopyButton>
                )}
              </Group>
            </Stack>
          )}
          {secret('key')}
          {fields.includes('allow_unverified_certificate') && (
            <Checkbox
              label={t('siem.field.allow_unverified_certificate')}
              {...form.getInputProps('allow_unverified_certificate', { type: 'checkbox' })}
              data-testid="siem-allow_unverified_certificate"
            />
          )}
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" disabled={!valid || !changed} loading={configure.isPending} data-testid="siem-save">
              {t('siem.form.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
