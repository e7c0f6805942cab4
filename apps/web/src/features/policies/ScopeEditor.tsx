import { Anchor, Collapse, Stack, TagsInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from '../../lib/use-translation.ts';

interface ScopeEditorProps {
  include: string[];
  exclude: string[];
  onChange: (scope: { include: string[]; exclude: string[] }) => void;
}

/** Who a team entry applies to: everyone, only the members named, or everyone but them. */
export function ScopeEditor({ include, exclude, onChange }: ScopeEditorProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const summary = include.length
    ? t('policy.scope.only_count', { count: include.length })
    : exclude.length
      ? t('policy.scope.except_count', { count: exclude.length })
      : t('policy.scope.everyone');
  const clean = (list: string[]) => [...new Set(list.map((e) => e.trim().toLowerCase()).filter(Boolean))];
  return (
    <Stack gap={4} mt={4} align="flex-start">
      <Anchor component="button" type="button" size="xs" onClick={() => setOpen((o) => !o)} aria-expanded={open}>
        {summary}
      </Anchor>
      <Collapse expanded={open}>
        <Stack gap="xs" maw={480}>
          <TagsInput
            size="xs"
            label={t('policy.scope.include')}
            description={t('policy.scope.include_help')}
            value={include}
            onChange={(v) => onChange({ include: clean(v), exclude })}
            splitChars={[',', ' ', ';']}
            clearable
          />
          <TagsInput
            size="xs"
            label={t('policy.scope.exclude')}
            value={exclude}
            onChange={(v) => onChange({ include, exclude: clean(v) })}
            splitChars={[',', ' ', ';']}
            clearable
          />
        </Stack>
      </Collapse>
    </Stack>
  );
}
