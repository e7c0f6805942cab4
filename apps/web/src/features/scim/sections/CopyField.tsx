import { Button, Code, CopyButton, Group } from '@mantine/core';
import { useTranslation } from '../../../lib/use-translation.ts';

export function CopyField({ value, testId }: { value: string; testId: string }) {
  const { t } = useTranslation();
  return (
    <Group gap="xs" wrap="nowrap">
      <Code style={{ wordBreak: 'break-all', flex: 1 }} data-testid={testId}>
        {value}
      </Code>
      <CopyButton value={value} timeout={2000}>
        {({ copied, copy }) => (
          <Button size="xs" variant="light" onClick={copy} data-testid={`${testId}-copy`}>
            {t(copied ? 'integration.copied' : 'integration.copy')}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}
