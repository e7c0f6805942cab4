import { emailProblem, MAX_BULK_EMAILS } from '@latchkey/contracts/client';
import { Button, FileButton, Group, Modal, Pill, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ModalError } from '../../components/ModalError.tsx';
import { fieldProps } from '../../lib/form.ts';
import { formatNumber } from '../../lib/format.ts';
import { EMAIL_MAX, limitProps, trimPasted } from '../../lib/limits.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { type MemberAction, useMemberActionMutation } from './api.ts';
import { emailsFromCsv } from './rules.ts';

/** Every member action asks first; the destructive ones in red, errors above the dialog content. */
export function ConfirmAction({ action, onClose }: { action: MemberAction; onClose: (done: boolean) => void }) {
  const { t } = useTranslation();
  const mutation = useMemberActionMutation();
  const n = action.emails.length;
  const who = n === 1 ? action.emails[0] : t('members.n_members', { n: formatNumber(n) });
  const destructive = action.kind === 'remove' || action.kind === 'revoke' || action.kind === 'suspend';
  return (
    <ConfirmDialog
      title={t(`members.confirm.${action.kind}.title`)}
      action={t(`members.action.${action.kind}`)}
      pending={mutation.isPending}
      error={mutation.error}
      onConfirm={() =>
        mutation.mutate(action, {
          onSuccess: () => {
            notifications.show({ color: 'teal', message: t(`members.done.${action.kind}`, { who }) });
            onClose(true);
          },
        })
      }
      onClose={() => onClose(false)}
      color={destructive ? 'red' : null}
    >
      {t(`members.confirm.${action.kind}.body`, { who })}
    </ConfirmDialog>
  );
}

/** Invite one person by email, or many from a CSV file (any column holding emails). */
export function InviteModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const form = useForm({
    initialValues: { email: '', csv: null as { name: string; emails: string[] } | null },
    // A chosen CSV file replaces the typed address; the contracts' emailProblem is the server's rule.
    validate: { email: (email, values) => (values.csv ? null : emailProblem(email.trim())) },
    validateInputOnBlur: true,
  });
  const mutation = useMemberActionMutation();
  const { csv } = form.values;
  const typed = form.values.email.trim();
  // Only a valid address counts: Send says how many will go, and waits while there is none.
  const emails = csv ? csv.emails : typed && !emailProblem(typed) ? [typed] : [];
  const tooMany = csv !== null && csv.emails.length > MAX_BULK_EMAILS;
  const submit = form.onSubmit(() => {
    if (tooMany) return;
    mutation.mutate(
      { kind: 'invite', emails },
      {
        onSuccess: (result) => {
          const n = 'invited' in result ? result.invited.length : emails.length;
          notifications.show({ color: 'teal', message: t('members.done.invite', { n: formatNumber(n) }) });
          onClose();
        },
      },
    );
  });
  return (
    <Modal opened onClose={onClose} title={t('members.invite.title')} centered>
      <form onSubmit={submit} noValidate>
        <Stack gap="md" data-testid="invite-dialog">
          <ModalError error={mutation.error} />
          <TextInput
            {...limitProps(EMAIL_MAX, trimPasted)}
            label={t('members.invite.email')}
            {...fieldProps(form, 'email', t)}
            disabled={csv !== null}
            data-autofocus
            data-testid="invite-email"
          />
          <Text size="sm" c="dimmed">
            {t('members.invite.csv_hint')}
          </Text>
          <Group gap="sm">
            <FileButton
              accept=".csv,text/csv"
              onChange={async (file) => {
                if (!file) return;
                form.setFieldValue('csv', { name: file.name, emails: emailsFromCsv(await file.text()) });
                form.clearFieldError('email');
              }}
            >
              {(props) => (
                <Button variant="default" size="sm" {...props} data-testid="invite-csv">
                  {t('members.invite.choose_csv')}
                </Button>
              )}
            </FileButton>
            {csv && (
              <Pill withRemoveButton onRemove={() => form.setFieldValue('csv', null)} data-testid="invite-csv-summary">
                {t('members.invite.csv_found', { file: csv.name, n: formatNumber(csv.emails.length) })}
              </Pill>
            )}
          </Group>
          {tooMany && (
            <Text size="sm" c="red">
              {t('members.invite.too_many', { max: formatNumber(MAX_BULK_EMAILS) })}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={mutation.isPending} disabled={emails.length === 0} data-testid="invite-submit">
              {t('members.invite.send', { n: formatNumber(emails.length) })}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
