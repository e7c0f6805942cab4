import { Alert, Card, Stack, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type ReactNode, useState } from 'react';
import { errorMessage } from '../../lib/api-error.ts';
import { useTranslation } from '../../lib/use-translation.ts';

/** Runs a form's call with a spinner, the server's error above the form, success as a toast. */
export function useSubmit() {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function run<T>(fn: () => Promise<T>, successKey?: string): Promise<T | undefined> {
    setBusy(true);
    setError(null);
    try {
      const result = await fn();
      if (successKey) notifications.show({ color: 'green', message: t(successKey), autoClose: 5000 });
      return result;
    } catch (e) {
      setError(errorMessage(e));
      return undefined;
    } finally {
      setBusy(false);
    }
  }
  const alert = error ? (
    <Alert color="red" variant="light" role="alert">
      {t(error)}
    </Alert>
  ) : null;
  return { busy, run, alert, setError };
}

export function Section({ title, children, testId }: { title: string; children: ReactNode; testId: string }) {
  const { t } = useTranslation();
  return (
    <Card withBorder padding="lg" radius="md" data-testid={testId}>
      <Stack gap="md">
        <Title order={2} size="h4">
          {t(title)}
        </Title>
        {children}
      </Stack>
    </Card>
  );
}
