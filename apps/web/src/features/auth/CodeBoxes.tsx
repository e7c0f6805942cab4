import { OTP_LENGTH } from '@latchkey/contracts/client';
import { Group, PinInput, Stack, Text } from '@mantine/core';
import { useEffect } from 'react';
import { preloadConsole } from '../../lib/preload.ts';
import { useTranslation } from '../../lib/use-translation.ts';

/** Keeps only digits, at most six: what a pasted code becomes (spec §5). */
export const digitsOnly = (text: string): string => text.replace(/\D/g, '').slice(0, OTP_LENGTH);

interface CodeBoxesProps {
  value: string;
  /** Message key shown under the boxes. */
  error: string | null;
  onChange: (code: string) => void;
  onComplete: (code: string) => void;
}

/** Six boxes, one digit each, for an emailed or authenticator code (spec §2, §5). */
export function CodeBoxes({ value, error, onChange, onComplete }: CodeBoxesProps) {
  const { t } = useTranslation();
  // The code is the last step: the console's frame and landing screen load while it is typed.
  useEffect(preloadConsole, []);
  return (
    <Stack gap={6}>
      <Group justify="center">
        <PinInput
          length={OTP_LENGTH}
          type="number"
          oneTimeCode
          autoFocus
          size="md"
          gap={6}
          value={value}
          error={Boolean(error)}
          aria-label={t('loginpage.code')}
          getInputProps={(index) => ({ 'aria-label': t('loginpage.code_digit', { n: index + 1 }) })}
          onChange={(text) => onChange(digitsOnly(text))}
          onComplete={(text) => onComplete(digitsOnly(text))}
        />
      </Group>
      {error && (
        <Text c="red" size="sm" ta="center" role="alert" data-testid="code-error">
          {t(error)}
        </Text>
      )}
    </Stack>
  );
}
