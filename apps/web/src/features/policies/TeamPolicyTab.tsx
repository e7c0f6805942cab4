import { POLICY_CATALOGUE, POLICY_CATEGORIES, type TeamPolicy } from '@latchkey/contracts/client';
import { Skeleton, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMemo } from 'react';
import { DataFetchError } from '../../components/StatusScreens.tsx';
import { useUnsavedChanges } from '../../lib/unsaved-changes.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { useImpactQuery, useSaveTeamPolicyMutation, useTeamPolicyQuery } from './api.ts';
import { CategoryCard } from './CategoryCard.tsx';
import { draftErrors, editable, type TeamDraft, teamDraft, teamPatch } from './draft.ts';
import { formatValue } from './format.ts';
import { PolicyField } from './PolicyField.tsx';
import { SaveBar } from './SaveBar.tsx';
import { ScopeEditor } from './ScopeEditor.tsx';
import { useSaveToast } from './use-save-toast.ts';

export function EditorSkeleton() {
  return (
    <Stack gap="md" aria-busy="true" data-testid="policy-skeleton">
      {[1, 2, 3].map((n) => (
        <Skeleton key={n} h={180} radius="md" />
      ))}
    </Stack>
  );
}

/** The team policy tab: loads, then edits a draft of it. */
export function TeamPolicyTab() {
  const query = useTeamPolicyQuery();
  if (query.isPending) return <EditorSkeleton />;
  if (query.isError) return <DataFetchError onRetry={() => void query.refetch()} />;
  // A new saved version starts a fresh draft.
  return <TeamPolicyForm key={JSON.stringify(query.data.policy_json)} saved={query.data.policy_json} />;
}

function TeamPolicyForm({ saved }: { saved: TeamPolicy }) {
  const { t } = useTranslation();
  const initial = useMemo(() => teamDraft(saved), [saved]);
  // The draft's rules live in draft.ts (errors shown as the admin types); the form holds its values.
  const form = useForm<TeamDraft>({ initialValues: initial });
  const draft = form.getValues();
  const patch = useMemo(() => teamPatch(initial, draft), [initial, draft]);
  const dirty = form.isDirty();
  const errors = draftErrors(Object.fromEntries(Object.entries(draft).map(([k, e]) => [k, e.value])), 'team');
  const hasErrors = Object.keys(errors).length > 0;
  const impact = useImpactQuery(dirty && !hasErrors ? { scope: 'team', policy_json: patch } : null);
  const mutation = useSaveTeamPolicyMutation();
  const toast = useSaveToast();

  const discard = () => form.reset();
  const save = () => (hasErrors ? Promise.resolve(false) : toast(() => mutation.mutateAsync(patch), discard));
  useUnsavedChanges({ dirty, save, discard, warning: t('You have unsaved changes. Are you sure you want to leave?') });

  const set = (key: string, change: Partial<TeamDraft[string]>) =>
    // Policy keys hold dots ('mp.min_length'), which form paths would read as nesting.
    form.setValues((d) => ({ [key]: { ...(d[key] as TeamDraft[string]), ...change } }));
  const defs = editable('team');

  return (
    <Stack gap="md" data-testid="team-policy-form">
      {POLICY_CATEGORIES.map((category) => (
        <CategoryCard
          key={category}
          category={category}
          readonlyDefs={POLICY_CATALOGUE.filter((d) => d.readonly && d.category === category)}
        >
          {defs
            .filter((d) => d.category === category)
            .map((def) => {
              const entry = draft[def.key] as TeamDraft[string];
              return (
                <PolicyField
                  key={def.key}
                  def={def}
                  value={entry.value}
                  onChange={(value) => set(def.key, { value })}
                  error={errors[def.key]}
                  canAuto={!def.non_removable}
                  autoLabel={t('policy.auto_default', { value: formatValue(t, def.default) })}
                >
                  {entry.value !== 'auto' && (
                    <ScopeEditor include={entry.include} exclude={entry.exclude} onChange={(scope) => set(def.key, scope)} />
                  )}
                </PolicyField>
              );
            })}
        </CategoryCard>
      ))}
      <SaveBar
        dirty={dirty}
        hasErrors={hasErrors}
        saving={mutation.isPending}
        impact={impact.data}
        impactLoading={impact.isFetching}
        onSave={() => void save()}
        onDiscard={discard}
      />
    </Stack>
  );
}
