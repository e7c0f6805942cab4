import { TextInput } from '@mantine/core';
import { isBlockedNumberKey, pastedQuantity, QUANTITY_MAX_LENGTH } from './rules.ts';

/** A licence quantity (spec §5 number input): digits only, no e/E/+/−/decimal, a paste cut to the maximum length. */
export function QuantityInput({
  label,
  description,
  value,
  onChange,
  onBlur,
  error,
  testId,
}: {
  label: string;
  description: string;
  value: string;
  onChange: (value: string) => void;
  onBlur: () => void;
  error: string | undefined;
  testId: string;
}) {
  return (
    <TextInput
      label={label}
      description={description}
      inputMode="numeric"
      autoComplete="off"
      maxLength={QUANTITY_MAX_LENGTH}
      value={value}
      error={error}
      onBlur={onBlur}
      onKeyDown={(e) => {
        if (isBlockedNumberKey(e.key)) e.preventDefault();
      }}
      onPaste={(e) => {
        e.preventDefault();
        const input = e.currentTarget;
        const before = input.value.slice(0, input.selectionStart ?? input.value.length);
        const after = input.value.slice(input.selectionEnd ?? input.value.length);
        const next = pastedQuantity(before, e.clipboardData.getData('text'), QUANTITY_MAX_LENGTH);
        if (next !== null) onChange((next + after).slice(0, QUANTITY_MAX_LENGTH));
      }}
      // Typed characters other than digits (a mobile keyboard, an IME) are dropped.
      onChange={(e) => onChange(e.currentTarget.value.replace(/\D/g, '').slice(0, QUANTITY_MAX_LENGTH))}
      data-autofocus
      data-testid={testId}
    />
  );
}
