import { type PolicyDefinition, type PolicyProblem, policyHelpKey, policyTitleKey } from '@latchkey/contracts/client';
import { Box, Group, NumberInput, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { isolate } from '../../lib/format.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import type { DraftValue } from './draft.ts';
import { formatValue } from './format.ts';

interface PolicyFieldProps {
  def: PolicyDefinition;
  value: DraftValue;
  onChange: (value: DraftValue) => void;
  error: PolicyProblem | undefined;
  /** Label of "not set here": the default on the team tab, the team policy on a group's. */
  autoLabel: string;
  /** Whether "not set here" is offered (never for a non-removable team key). */
  canAuto: boolean;
  /**
   * What "not set here" gives on a group's tab: the team policy's value, shown in full under the
   * control (UI.md: inherited values in full, beside the field) instead of inside a cut option.
   */
  inherited?: string;
  /** Extra controls under the help text (member scoping, not-enforced flag). */
  children?: React.ReactNode;
}

/** One policy: its title and help (i18n), and the control its type calls for. */
export function PolicyField({ def, value, onChange, error, autoLabel, canAuto, inherited, children }: PolicyFieldProps) {
  const { t } = useTranslation();
  const title = t(policyTitleKey(def.key));
  const type = def.type;
  const errorText = error ? t(error.key, error.values) : undefined;

  let control: React.ReactNode;
  if (type.kind === 'boolean') {
    const data = [
      ...(canAuto ? [{ value: 'auto', label: autoLabel }] : []),
      { value: 'true', label: t('policy.value.on') },
      { value: 'false', label: t('policy.value.off') },
    ];
    control = (
      <SegmentedControl
        size="xs"
        data={data}
        value={String(value)}
        onChange={(v) => onChange(v === 'auto' ? 'auto' : v === 'true')}
        aria-label={title}
      />
    );
  } else if (type.kind === 'enum') {
    control = (
      <Select
        size="xs"
        w="100%"
        allowDeselect={false}
        aria-label={title}
        value={String(value)}
        onChange={(v) => v && onChange(v)}
        data={[
          ...(canAuto ? [{ value: 'auto', label: autoLabel }] : []),
          ...type.values.map((v) => ({ value: v, label: formatValue(t, v) })),
        ]}
      />
    );
  } else {
    control = (
      <NumberInput
        size="xs"
        w={160}
        aria-label={title}
        value={value === 'auto' ? '' : (value as number | '')}
        placeholder={canAuto ? (inherited ?? autoLabel) : undefined}
        allowDecimal={false}
        allowNegative={false}
        // The spec's cap shows as an error, not a silent clamp (spec §5).
        clampBehavior="none"
        onChange={(v) => onChange(v === '' ? (canAuto ? 'auto' : '') : Number(v))}
        error={errorText}
        rightSection={<Text size="xs" c="dimmed" pr={4}>{`${type.min}–${type.max}`}</Text>}
        rightSectionWidth={type.max >= 1000 ? 76 : 60}
        data-testid={`policy-input-${def.key}`}
      />
    );
  }

  return (
    <Group
      justify="space-between"
      align="flex-start"
      wrap="wrap"
      gap="sm"
      py="sm"
      data-testid={`policy-${def.key}`}
      style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
    >
      <Stack gap={2} style={{ flex: '1 1 260px' }} miw={0}>
        <Text fw={500} size="sm">
          {title}
        </Text>
        <Text size="xs" c="dimmed">
          {t(policyHelpKey(def.key))}
        </Text>
        {children}
      </Stack>
      {/* As wide as its longest choice allows: a chosen value is never cut ("Authenticator app or security ke"). */}
      <Box style={{ flex: type.kind === 'enum' ? '0 1 320px' : '0 1 auto', minWidth: 0 }}>
        {control}
        {value === 'auto' && inherited !== undefined && (
          <Text size="xs" c="dimmed" mt={4} data-testid={`policy-inherited-${def.key}`}>
            {t('policy.inherited_team', { value: isolate(inherited) })}
          </Text>
        )}
        {errorText && type.kind !== 'integer' && (
          <Text size="xs" c="red" mt={4}>
            {errorText}
          </Text>
        )}
      </Box>
    </Group>
  );
}
