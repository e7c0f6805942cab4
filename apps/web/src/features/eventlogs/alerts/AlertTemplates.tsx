import type { AlertTemplateKey } from '@latchkey/contracts/client';
import { Button, Card, Group, Modal, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { ModalError } from '../../../components/ModalError.tsx';
import { getSession } from '../../../lib/session.ts';
import { useTranslation } from '../../../lib/use-translation.ts';
import { type DestinationValues, destinationInput, destinationValues, hubFieldErrors } from './alert-text.ts';
import { useEnableAlertTemplate } from './alerts-api.ts';
import { type DestinationErrors, DestinationFields, destinationErrors, destinationProblems } from './DestinationFields.tsx';

/** The built-in rules not switched on yet, each with its one line and a "Switch on". */
export function AlertTemplates({ keys }: { keys: readonly AlertTemplateKey[] }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<AlertTemplateKey | null>(null);
  if (keys.length === 0) return null;
  return (
    <Stack gap="sm" data-testid="alert-templates">
      <Text fw={600}>{t('alerts.templates.title')}</Text>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
        {keys.map((key) => (
          <Card key={key} withBorder padding="md" data-testid="alert-template" data-key={key}>
            <Stack gap="xs" h="100%" justify="space-between">
              <div>
                <Text fw={600} size="sm">
                  {t(`alerts.template.${key}`)}
                </Text>
                <Text size="sm" c="dimmed">
                  {t(`alerts.template.${key}.description`)}
                </Text>
              </div>
              <Group>
                <Button size="xs" variant="light" onClick={() => setOpen(key)} data-testid="alert-template-on">
                  {t('alerts.templates.switch_on')}
                </Button>
              </Group>
            </Stack>
          </Card>
        ))}
      </SimpleGrid>
      {open && <SwitchOnDialog template={open} onClose={() => setOpen(null)} />}
    </Stack>
  );
}

/** Where the template's alerts go: an e-mail to the admin switching it on, unless they add or change it. */
function SwitchOnDialog({ template, onClose }: { template: AlertTemplateKey; onClose: () => void }) {
  const { t } = useTranslation();
  const enable = useEnableAlertTemplate();
  const [name, setName] = useState(t(`alerts.template.${template}`));
  const [dest, setDest] = useState<DestinationValues>(destinationValues([], getSession()?.email ?? ''));
  const [errors, setErrors] = useState<DestinationErrors & { none?: string }>({});
  const submit = () => {
    const destinations = destinationInput(dest);
    const found = destinationProblems(dest, destinations);
    setErrors(found);
    if (Object.keys(found).length) return;
    enable.mutate(
      { template, name: name.trim() || t(`alerts.template.${template}`), destinations },
      {
        onSuccess: () => {
          notifications.show({ color: 'teal', message: t('alerts.templates.switched_on', { name: name.trim() }) });
          onClose();
        },
        onError: (error) =>
          setErrors(
            destinationErrors(
              hubFieldErrors(error),
              destinations.map((d) => d.kind),
            ),
          ),
      },
    );
  };
  return (
    <Modal opened onClose={onClose} title={t('alerts.templates.dialog_title')} centered size="lg">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Stack gap="md" data-testid="alert-template-dialog">
          <Text size="sm" c="dimmed">
            {t(`alerts.template.${template}.description`)}
          </Text>
          <ModalError error={Object.keys(errors).length ? null : enable.error} />
          <TextInput
            label={t('alerts.form.name')}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            maxLength={120}
            data-testid="alert-template-name"
          />
          <DestinationFields
            value={dest}
            onChange={(v) => {
              setDest(v);
              setErrors({});
            }}
            errors={errors}
          />
          {errors.none && <ModalError error={errors.none} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={enable.isPending} data-testid="alert-template-submit">
              {t('alerts.templates.switch_on')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
