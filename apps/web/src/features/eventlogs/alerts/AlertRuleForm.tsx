import { Button, Drawer, Group, NumberInput, Radio, Select, SimpleGrid, Stack, TagsInput, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { ModalError } from '../../../components/ModalError.tsx';
import { getSession } from '../../../lib/session.ts';
import { useTranslation } from '../../../lib/use-translation.ts';
import {
  type ConditionValues,
  conditionValues,
  type DestinationValues,
  destinationInput,
  destinationValues,
  hubFieldErrors,
} from './alert-text.ts';
import { type AlertRule, useCreateAlertRule, useUpdateAlertRule } from './alerts-api.ts';
import { type DestinationErrors, DestinationFields, destinationErrors, destinationProblems } from './DestinationFields.tsx';

/** The filters a rule starts from: the event log's current search, or the rule's own. */
export interface RuleFilters {
  activities: string[];
  actors: string[];
  components: string[];
  ip_addresses: string[];
  search_value: string;
}

/** A new rule (from the log's search) or an edit: search, condition, cooldown, destinations. */
export function AlertRuleForm({ rule, start, onClose }: { rule: AlertRule | null; start: RuleFilters; onClose: () => void }) {
  const { t } = useTranslation();
  const create = useCreateAlertRule();
  const update = useUpdateAlertRule();
  const saving = rule ? update : create;
  const f = (rule?.filters ?? start) as Partial<RuleFilters>;
  const [name, setName] = useState(rule?.name ?? '');
  const [filters, setFilters] = useState<RuleFilters>({
    activities: f.activities ?? [],
    actors: f.actors ?? [],
    components: f.components ?? [],
    ip_addresses: f.ip_addresses ?? [],
    search_value: f.search_value ?? '',
  });
  const [condition, setCondition] = useState<ConditionValues>(conditionValues(rule?.condition));
  const [cooldown, setCooldown] = useState<number>(rule?.cooldown_minutes ?? 0);
  const [dest, setDest] = useState<DestinationValues>(destinationValues(rule?.destinations ?? [], getSession()?.email ?? ''));
  const [errors, setErrors] = useState<DestinationErrors & { name?: string; none?: string }>({});
  const emailId = rule?.destinations.find((d) => d.kind === 'email')?.id;

  const submit = () => {
    const found: typeof errors = {};
    if (!name.trim()) found.name = 'alerts.form.name_required';
    const destinations = destinationInput(dest, emailId);
    Object.assign(found, destinationProblems(dest, destinations));
    setErrors(found);
    if (Object.keys(found).length) return;
    const body = {
      name: name.trim(),
      filters: { ...filters, search_value: filters.search_value.trim() },
      condition:
        condition.kind === 'every'
          ? { kind: 'every' as const }
          : {
              kind: 'threshold' as const,
              count: condition.count,
              minutes: condition.minutes,
              group_by: condition.group_by === 'none' ? null : condition.group_by,
            },
      cooldown_minutes: cooldown,
      destinations,
      enabled: rule?.enabled ?? true,
    };
    const done = {
      onSuccess: () => {
        notifications.show({ color: 'teal', message: t('alerts.form.saved', { name: body.name }) });
        onClose();
      },
      onError: (error: unknown) =>
        setErrors(
          destinationErrors(
            hubFieldErrors(error),
            destinations.map((d) => d.kind),
          ),
        ),
    };
    if (rule) update.mutate({ id: rule.id, ...body }, done);
    else create.mutate(body, done);
  };

  const tags = (key: 'activities' | 'actors' | 'ip_addresses', label: string) => (
    <TagsInput
      label={t(label)}
      value={filters[key]}
      onChange={(v) => setFilters({ ...filters, [key]: v })}
      acceptValueOnBlur
      data-testid={`alert-filter-${key}`}
    />
  );
  const fieldError = Object.keys(errors).length > 0;
  return (
    <Drawer
      opened
      onClose={onClose}
      position="right"
      size="lg"
      title={t(rule ? 'alerts.form.edit_title' : 'alerts.form.new_title')}
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Stack gap="md" data-testid="alert-rule-form">
          <ModalError error={fieldError ? null : saving.error} />
          <TextInput
            label={t('alerts.form.name')}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            maxLength={120}
            required
            error={errors.name ? t(errors.name) : undefined}
            data-autofocus
            data-testid="alert-rule-name"
          />
          {tags('activities', 'alerts.form.activities')}
          <TextInput
            label={t('alerts.form.search')}
            value={filters.search_value}
            onChange={(e) => setFilters({ ...filters, search_value: e.currentTarget.value })}
            maxLength={100}
            data-testid="alert-filter-search"
          />
          {tags('actors', 'alerts.form.actors')}
          {tags('ip_addresses', 'alerts.form.ips')}
          <Radio.Group
            label={t('alerts.col.condition')}
            value={condition.kind}
            onChange={(kind) => setCondition({ ...condition, kind: kind as ConditionValues['kind'] })}
          >
            <Group gap="lg" mt={6}>
              <Radio value="every" label={t('alerts.condition.every')} data-testid="alert-condition-every" />
              <Radio value="threshold" label={t('alerts.condition.threshold')} data-testid="alert-condition-threshold" />
            </Group>
          </Radio.Group>
          {condition.kind === 'threshold' && (
            <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm">
              <NumberInput
                label={t('alerts.condition.count')}
                min={2}
                max={10_000}
                value={condition.count}
                onChange={(v) => setCondition({ ...condition, count: Number(v) || 2 })}
              />
              <NumberInput
                label={t('alerts.condition.minutes')}
                min={1}
                max={1_440}
                value={condition.minutes}
                onChange={(v) => setCondition({ ...condition, minutes: Number(v) || 1 })}
              />
              <Select
                label={t('alerts.condition.group_by')}
                value={condition.group_by}
                onChange={(v) => setCondition({ ...condition, group_by: (v ?? 'none') as ConditionValues['group_by'] })}
                data={(['none', 'actor', 'ip', 'target'] as const).map((g) => ({ value: g, label: t(`alerts.group.${g}`) }))}
                allowDeselect={false}
              />
            </SimpleGrid>
          )}
          <NumberInput
            label={t('alerts.form.cooldown')}
            description={t('alerts.form.cooldown_hint')}
            min={0}
            max={10_080}
            value={cooldown}
            onChange={(v) => setCooldown(Number(v) || 0)}
            data-testid="alert-cooldown"
          />
          <DestinationFields
            value={dest}
            onChange={(v) => {
              setDest(v);
              // A destination changed: its refusal goes, the name's stays.
              setErrors(({ name }) => (name ? { name } : {}));
            }}
            errors={errors}
          />
          {errors.none && <ModalError error={errors.none} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={saving.isPending} data-testid="alert-rule-save">
              {t('common.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Drawer>
  );
}
