import type { SiemTool, SiemToolName } from '@latchkey/contracts/client';
import { Button, Checkbox, Group, Modal, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { ModalError } from '../../components/ModalError.tsx';
import { useTranslation } from '../../lib/use-translation.ts';
import { useSiemConfigureMutation } from './api.ts';

type Values = {
  url: string;
  port: string;
  path: string;
  token: string;
  workspace_id: string;
  key: string;
  log_source_identifier: string;
  allow_unverified_certificate: boolean;
};

/** Spec §3: each vendor's fields. */
export const FIELDS: Record<SiemToolName, readonly (keyof Values)[]> = {
  splunk: ['url', 'port', 'path', 'token', 'allow_unverified_certificate'],
  other: ['url', 'token', 'allow_unverified_certificate'],
  sumo_logic: ['url'],
  azure_sentinel: ['workspace_id', 'key'],
  qradar: ['url', 'log_source_identifier', 'allow_unverified_certificate'],
};
const SECRETS: readonly (keyof Values)[] = ['token', 'key'];
const OPTIONAL: readonly (keyof Values)[] = ['path', 'allow_unverified_certificate'];

/** Spec §5: a URL must parse, with https (QRadar's syslog: tcp:// or tls:// with a port). */
export function urlProblem(tool: SiemToolName, value: string): string | null {
  const v = value.trim();
  if (!v) return 'this field is required';
  if (!URL.canParse(v)) return 'invalid url';
  const u = new URL(v);
  if (tool === 'qradar') return ['tls:', 'tcp:'].includes(u.protocol) && u.port ? null : 'invalid url';
  return u.protocol === 'https:' ? null : 'invalid url';
}

/** Spec §5: port required, digits only, at most 5 characters. */
export const portProblem = (value: string): string | null =>
  !value ? 'this field is required' : /^\d{1,5}$/.test(value) ? null : 'siem.form.port_invalid';

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
  const fields = FIELDS[tool];
  const initial: Values = {
    url: '',
    port: '',
    path: '',
    token: '',
    workspace_id: '',
    key: '',
    log_source_identifier: '',
    allow_unverified_certificate: false,
    ...(editing?.config as Partial<Values> | undefined),
  };
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: initial,
    validateInputOnBlur: true,
    validate: (v) => {
      const errors: Partial<Record<keyof Values, string | null>> = {};
      for (const f of fields) {
        if (OPTIONAL.includes(f)) continue;
        if (f === 'url') errors.url = urlProblem(tool, v.url);
        else if (f === 'port') errors.port = portProblem(v.port);
        else if (SECRETS.includes(f) && editing?.has_secret) errors[f] = null;
        else errors[f] = String(v[f]).trim() ? null : 'this field is required';
      }
      return errors;
    },
  });
  const valid = fields.every((f) => {
    if (OPTIONAL.includes(f)) return true;
    if (f === 'url') return urlProblem(tool, form.values.url) === null;
    if (f === 'port') return portProblem(form.values.port) === null;
    if (SECRETS.includes(f) && editing?.has_secret) return true;
    return String(form.values[f]).trim() !== '';
  });
  const changed = !editing || fields.some((f) => form.values[f] !== initial[f]);
  const err = (f: keyof Values) => {
    const e = form.errors[f];
    return typeof e === 'string' ? t(e) : undefined;
  };
  const submit = form.onSubmit((v) => {
    const body = Object.fromEntries(fields.map((f) => [f, typeof v[f] === 'string' ? (v[f] as string).trim() : v[f]]));
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
        label={t(`siem.field.${f}`)}
        withAsterisk={!editing?.has_secret}
        placeholder={editing?.has_secret ? t('siem.form.secret_kept') : undefined}
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
          {text('url', { placeholder: tool === 'qradar' ? 'tls://qradar.example.com:6514' : 'https://' })}
          {text('port', { maxLength: 5, placeholder: '8088' })}
          {text('path', { required: false, placeholder: '/services/collector/event' })}
          {text('workspace_id')}
          {text('log_source_identifier')}
          {secret('token')}
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
