import type { ApprovalPolicy } from '@latchkey/contracts';
import { Button, Checkbox, Group, NumberInput, SimpleGrid, Skeleton, Stack, Switch, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import { ModalError } from '../../components/ModalError.tsx';
import { SectionCard } from '../../components/SectionCard.tsx';
import { DataFetchError } from '../../components/StatusScreens.tsx';
import { ApprovalRequired } from '../../lib/api-error.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { AREAS, actionLabel, areaOf } from './actions.ts';
import { useApprovalPolicyQuery, useSaveApprovalPolicyMutation } from './api.ts';
import { LockOutWarning } from './LockOutWarning.tsx';

/** The bounds the server checks (contracts' APPROVAL_LIMITS). */
const APPROVERS = { min: 2, max: 5 };
const EXPIRY_HOURS = { min: 1, max: 168 };

const inRange = (n: number, { min, max }: { min: number; max: number }) => Number.isInteger(n) && n >= min && n <= max;
const same = (a: ApprovalPolicy, b: ApprovalPolicy) =>
  a.enabled === b.enabled &&
  a.approvers === b.approvers &&
  a.expiry_hours === b.expiry_hours &&
  a.actions.length === b.actions.length &&
  a.actions.every((x) => b.actions.includes(x));

/**
 * The team's approval policy (super admins): on or off, which actions wait for approval (grouped
 * by area), how many people must agree, and how long a request stays open. It warns here when
 * fewer people could approve than it needs.
 */
export function ApprovalPolicyCard() {
  const { t } = useTranslation();
  const query = useApprovalPolicyQuery();
  const save = useSaveApprovalPolicyMutation();
  const [draft, setDraft] = useState<ApprovalPolicy | null>(null);
  const saved = query.data?.policy;
  useEffect(() => {
    if (saved) setDraft(saved);
  }, [saved]);

  if (query.isError) return <DataFetchError onRetry={() => void query.refetch()} />;
  if (!query.data || !draft) return <Skeleton h={420} radius="md" data-testid="approval-policy-loading" />;
  const { actions, eligible_approvers } = query.data;
  const valid = inRange(draft.approvers, APPROVERS) && inRange(draft.expiry_hours, EXPIRY_HOURS);
  const changed = saved !== undefined && !same(draft, saved);
  const set = (patch: Partial<ApprovalPolicy>) => setDraft({ ...draft, ...patch });
  const submit = () =>
    save.mutate(draft, { onSuccess: () => notifications.show({ color: 'teal', message: t('approvals.policy.saved') }) });

  return (
    <SectionCard title={t('approvals.policy.title')} testId="approval-policy">
      {draft.enabled && eligible_approvers < draft.approvers && (
        <LockOutWarning eligible={eligible_approvers} required={draft.approvers} />
      )}
      {/* A change held for approval is said by the screen's notice above, not as a failure here. */}
      {!(save.error instanceof ApprovalRequired) && <ModalError error={save.error} />}
      <Switch
        label={t('approvals.policy.enabled')}
        description={t('approvals.policy.enabled_hint')}
        checked={draft.enabled}
        onChange={(e) => set({ enabled: e.currentTarget.checked })}
        data-testid="approval-policy-enabled"
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <NumberInput
          label={t('approvals.policy.approvers')}
          description={t('approvals.policy.approvers_hint')}
          min={APPROVERS.min}
          max={APPROVERS.max}
          allowDecimal={false}
          value={draft.approvers}
          onChange={(v) => set({ approvers: Number(v) })}
          error={inRange(draft.approvers, APPROVERS) ? undefined : t('errors.approval_policy_approvers')}
          data-testid="approval-policy-approvers"
        />
        <NumberInput
          label={t('approvals.policy.expiry')}
          description={t('approvals.policy.expiry_hint')}
          min={EXPIRY_HOURS.min}
          max={EXPIRY_HOURS.max}
          allowDecimal={false}
          value={draft.expiry_hours}
          onChange={(v) => set({ expiry_hours: Number(v) })}
          error={inRange(draft.expiry_hours, EXPIRY_HOURS) ? undefined : t('errors.approval_policy_expiry')}
          data-testid="approval-policy-expiry"
        />
      </SimpleGrid>
      <Stack gap="xs">
        <Text fw={600} size="sm">
          {t('approvals.policy.actions')}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="lg" verticalSpacing="md">
          {AREAS.map((area) => {
            const inArea = actions.filter((a) => areaOf(a) === area);
            if (inArea.length === 0) return null;
            return (
              <Checkbox.Group
                key={area}
                label={t(`approvals.area.${area}`)}
                value={draft.actions.filter((a) => inArea.includes(a))}
                onChange={(chosen) =>
                  set({
                    actions: [...draft.actions.filter((a) => !inArea.includes(a)), ...(chosen as ApprovalPolicy['actions'])],
                  })
                }
                data-testid={`approval-policy-area-${area}`}
              >
                <Stack gap={6} mt={6}>
                  {inArea.map((action) => (
                    <Checkbox
                      key={action}
                      value={action}
                      label={t(actionLabel(action))}
                      data-testid={`approval-policy-action-${action}`}
                    />
                  ))}
                </Stack>
              </Checkbox.Group>
            );
          })}
        </SimpleGrid>
      </Stack>
      <Group justify="flex-end">
        <Button variant="default" disabled={!changed || save.isPending} onClick={() => saved && setDraft(saved)}>
          {t('approvals.policy.discard')}
        </Button>
        <Button onClick={submit} disabled={!changed || !valid} loading={save.isPending} data-testid="approval-policy-save">
          {t('common.save')}
        </Button>
      </Group>
    </SectionCard>
  );
}
