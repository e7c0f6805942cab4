import { NO_PRIORITY, POLICY_CATEGORIES, type PolicyGroup } from '@latchkey/contracts/client';
import { Badge, Button, Card, Checkbox, Group, NumberInput, Select, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMemo, useState } from 'react';
import { Link } from 'wouter';
import { DataFetchError } from '../../components/StatusScreens.tsx';
import { confirmLeave, useUnsavedChanges } from '../../lib/unsaved-changes.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import {
  useGroupPolicyQuery,
  useImpactQuery,
  usePolicyGroupsQuery,
  useSaveGroupPolicyMutation,
  useTeamPolicyQuery,
} from './api.ts';
import { CategoryCard } from './CategoryCard.tsx';
import { draftErrors, editable, type GroupDraft, groupDraft, groupUpdate, isPriorityValid } from './draft.ts';
import { formatValue } from './format.ts';
import { PolicyField } from './PolicyField.tsx';
import { SaveBar } from './SaveBar.tsx';
import { EditorSkeleton } from './TeamPolicyTab.tsx';
import { useSaveToast } from './use-save-toast.ts';

/** Group overrides: pick a group, then edit its policy and priority. */
export function GroupPolicyTab() {
  const { t } = useTranslation();
  const groups = usePolicyGroupsQuery();
  const [chosen, setChosen] = useState<string | null>(null);
  if (groups.isPending) return <EditorSkeleton />;
  if (groups.isError) return <DataFetchError onRetry={() => void groups.refetch()} />;
  if (groups.data.length === 0) {
    return (
      <Card withBorder radius="md" p="xl" ta="center" data-testid="policy-no-groups">
        <Text fw={500}>{t('policy.groups.empty')}</Text>
        <Text size="sm" c="dimmed" mb="md">
          {t('policy.groups.empty_body')}
        </Text>
        <Button component={Link} to="/groups" variant="light" mx="auto">
          {t('policy.groups.go_to_groups')}
        </Button>
      </Card>
    );
  }
  const groupId = chosen ?? (groups.data[0] as PolicyGroup).id;
  const label = (g: PolicyGroup) =>
    `${g.name} · ${g.policy_override ? t('policy.priority_n', { n: g.priority_level }) : t('policy.no_override')}`;
  return (
    <Stack gap="md">
      <Select
        label={t('policy.groups.choose')}
        data={groups.data.map((g) => ({ value: g.id, label: label(g) }))}
        value={groupId}
        allowDeselect={false}
        searchable
        maw={420}
        // Another group's policy replaces this one's draft: ask first.
        onChange={(v) => v && void confirmLeave().then((leave) => leave && setChosen(v))}
        data-testid="policy-group-select"
      />
      <GroupPolicyLoader groupId={groupId} />
    </Stack>
  );
}

function GroupPolicyLoader({ groupId }: { groupId: string }) {
  const query = useGroupPolicyQuery(groupId);
  if (query.isPending) return <EditorSkeleton />;
  if (query.isError) return <DataFetchError onRetry={() => void query.refetch()} />;
  const { group, policy_json, not_enforced_json } = query.data;
  return (
    <GroupPolicyForm
      key={`${groupId}:${JSON.stringify(query.data)}`}
      group={group}
      initial={groupDraft(policy_json, not_enforced_json, group.priority_level)}
    />
  );
}

function GroupPolicyForm({ group, initial }: { group: PolicyGroup; initial: GroupDraft }) {
  const { t } = useTranslation();
  // The draft's rules live in draft.ts (errors shown as the admin types); the form holds its values.
  const form = useForm<GroupDraft>({ initialValues: initial });
  const draft = form.getValues();
  const update = useMemo(() => groupUpdate(group.id, draft), [group.id, draft]);
  const dirty = form.isDirty();
  const errors = draftErrors(Object.fromEntries(Object.entries(draft.entries).map(([k, e]) => [k, e.value])), 'group');
  const priorityOk = isPriorityValid(draft.priority);
  const hasErrors = Object.keys(errors).length > 0 || !priorityOk;
  const impact = useImpactQuery(dirty && !hasErrors ? { scope: 'group', ...update } : null);
  const mutation = useSaveGroupPolicyMutation();
  const toast = useSaveToast();

  const discard = () => form.reset();
  const save = () => (hasErrors ? Promise.resolve(false) : toast(() => mutation.mutateAsync(update), discard));
  useUnsavedChanges({ dirty, save, discard, warning: t('You have unsaved changes. Are you sure you want to leave?') });

  const setEntry = (key: string, change: Partial<GroupDraft['entries'][string]>) =>
    // Policy keys hold dots ('mp.min_length'), which form paths would read as nesting.
    form.setValues((d) => ({
      entries: { ...d.entries, [key]: { ...(d.entries?.[key] as GroupDraft['entries'][string]), ...change } },
    }));
  const defs = editable('group');
  // "Not set here" shows what the member gets instead: the team's value, or the default.
  const team = useTeamPolicyQuery().data?.policy_json;
  const inherited = (key: string, fallback: unknown) => formatValue(t, team?.[key]?.policy ?? fallback);
  const overriding = Object.keys(update.policy_json).length > 0;

  return (
    <Stack gap="md" data-testid="group-policy-form">
      <Card withBorder radius="md" padding="lg">
        <Group justify="space-between" align="flex-end" wrap="wrap" gap="md">
          <Stack gap={4}>
            <Group gap="xs">
              <Text fw={600}>{group.name}</Text>
              <Badge variant="light" color={group.policy_override ? 'indigo' : 'gray'}>
                {group.policy_override ? t('policy.override_on') : t('policy.no_override')}
              </Badge>
            </Group>
            <Text size="xs" c="dimmed">
              {t('policy.groups.members', { count: group.member_count })}
            </Text>
          </Stack>
          <Group align="flex-end" gap="sm">
            <NumberInput
              label={t('policy.priority')}
              description={t('policy.priority_help')}
              placeholder={t('policy.priority_next')}
              value={draft.priority}
              onChange={(v) => form.setFieldValue('priority', v === '' ? '' : Number(v))}
              min={1}
              max={NO_PRIORITY - 1}
              allowDecimal={false}
              allowNegative={false}
              clampBehavior="none"
              disabled={!overriding}
              error={priorityOk ? undefined : t('policy.error.range', { min: 1, max: NO_PRIORITY - 1 })}
              w={220}
              data-testid="policy-priority"
            />
            <Button
              variant="subtle"
              color="red"
              disabled={!overriding}
              onClick={() =>
                form.setValues((d) => ({
                  priority: '',
                  entries: Object.fromEntries(
                    Object.entries(d.entries ?? {}).map(([k, e]) => [k, { ...e, value: 'auto' as const }]),
                  ),
                }))
              }
            >
              {t('policy.clear_override')}
            </Button>
          </Group>
        </Group>
      </Card>
      {POLICY_CATEGORIES.filter((c) => defs.some((d) => d.category === c)).map((category) => (
        <CategoryCard key={category} category={category} readonlyDefs={[]}>
          {defs
            .filter((d) => d.category === category)
            .map((def) => {
              const entry = draft.entries[def.key] as GroupDraft['entries'][string];
              return (
                <PolicyField
                  key={def.key}
                  def={def}
                  value={entry.value}
                  onChange={(value) => setEntry(def.key, { value })}
                  error={errors[def.key]}
                  canAuto
                  autoLabel={t('policy.auto_team')}
                  inherited={inherited(def.key, def.default)}
                >
                  {entry.value !== 'auto' && entry.value !== '' && (
                    <Checkbox
                      size="xs"
                      mt={4}
                      label={t('policy.not_enforced_label')}
                      checked={entry.not_enforced}
                      onChange={(e) => setEntry(def.key, { not_enforced: e.currentTarget.checked })}
                    />
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
