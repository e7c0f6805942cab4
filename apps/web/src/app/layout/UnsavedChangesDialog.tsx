import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { setUnsavedPrompt, type UnsavedPrompt } from '../../lib/unsaved-changes.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { installBrowserNavigationGuard } from './guarded-location.ts';

type Pending = Parameters<UnsavedPrompt>[0] & { resolve: (leave: boolean) => void };

/**
 * The 'Unsaved Changes' dialog (spec §2 Policy): cancel stays, discard leaves without saving,
 * 'Save & Continue' saves then leaves (or stays when the save fails). Mounted once in the shell,
 * where it also holds the browser's Back / Forward while there are unsaved changes.
 */
export function UnsavedChangesDialog() {
  const { t } = useTranslation();
  const [pending, setPending] = useState<Pending | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    setUnsavedPrompt((actions) => new Promise<boolean>((resolve) => setPending({ ...actions, resolve })));
    const uninstall = installBrowserNavigationGuard();
    return () => {
      setUnsavedPrompt(null);
      uninstall();
    };
  }, []);

  const finish = (leave: boolean) => {
    pending?.resolve(leave);
    setPending(null);
    setSaving(false);
  };
  const saveAndContinue = async () => {
    setSaving(true);
    finish(await (pending?.save() ?? Promise.resolve(false)));
  };

  return (
    <Modal
      opened={pending !== null}
      onClose={() => !saving && finish(false)}
      title={t('Unsaved Changes')}
      centered
      // Wide enough for its three answers on one row (they wrap only on a phone).
      size="lg"
      data-testid="unsaved-changes-dialog"
    >
      <Stack gap="lg">
        <Text size="sm">{t('Do you want to save unsaved Changes?')}</Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={() => finish(false)} disabled={saving}>
            {t('common.cancel')}
          </Button>
          <Button
            variant="light"
            color="red"
            disabled={saving}
            onClick={() => {
              pending?.discard();
              finish(true);
            }}
          >
            {t('unsaved.discard')}
          </Button>
          <Button onClick={saveAndContinue} loading={saving}>
            {t('Save & Continue')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
