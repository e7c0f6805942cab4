import type { BenefitGrantType, FamilyBenefit } from '@latchkey/contracts/client';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Menu,
  Modal,
  MultiSelect,
  Radio,
  Skeleton,
  Stack,
  Text,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ModalError } from '../../components/ModalError.tsx';
import { DataFetchError } from '../../components/StatusScreens.tsx';
import { formatNumber } from '../../lib/format.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { useBenefitGroupsQuery, useFamilyBenefitMutation, useFamilyBenefitQuery } from './api.ts';
import { type Assignment, assignDisabled, groupsRemovedBy } from './rules.ts';

const assignmentOf = (b: FamilyBenefit): Assignment => ({
  type: b.benefit_grant_type,
  groupIds: b.benefit_groups.map((g) => g.id),
});

/** settings/family-plan: who gets the family plan as a benefit (spec §2, §4, §5). */
export function FamilyPlan() {
  const { t } = useTranslation();
  const benefit = useFamilyBenefitQuery();
  const [dialog, setDialog] = useState<'assign' | 'unassign' | null>(null);
  const mutation = useFamilyBenefitMutation();

  if (benefit.isError) return <DataFetchError onRetry={() => void benefit.refetch()} />;
  if (!benefit.data) return <Skeleton h={160} maw={720} radius="md" />;
  const data = benefit.data;
  const assigned = data.benefit_grant_type !== 'none';

  const done = (result: { granted: number; removed: number }) =>
    notifications.show({
      color: 'teal',
      message: t('family.done', { granted: formatNumber(result.granted), removed: formatNumber(result.removed) }),
    });

  return (
    <Card withBorder radius="md" padding="lg" maw={720} data-testid="family-plan">
      <Stack gap="md">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Stack gap={4}>
            <Text fw={600}>{t('family.current')}</Text>
            <Text size="sm" c="dimmed">
              {t('family.current.description')}
            </Text>
          </Stack>
          <Group gap="xs" wrap="nowrap">
            <Button
              onClick={() => {
                mutation.reset();
                setDialog('assign');
              }}
              data-testid="family-assign"
            >
              {t(assigned ? 'family.update' : 'family.assign')}
            </Button>
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <ActionIcon variant="default" size={36} aria-label={t('family.more')} data-testid="family-menu">
                  <Text fw={700} lh={1}>
                    ⋯
                  </Text>
                </ActionIcon>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item
                  color="red"
                  disabled={!assigned}
                  onClick={() => {
                    mutation.reset();
                    setDialog('unassign');
                  }}
                  data-testid="family-unassign"
                >
                  {t('family.unassign_all')}
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          </Group>
        </Group>
        <Stack gap="xs" data-testid="family-assignment" data-type={data.benefit_grant_type}>
          <Group gap="xs">
            <Badge color={assigned ? 'teal' : 'gray'} variant="light" size="lg">
              {t(`family.type.${data.benefit_grant_type}`)}
            </Badge>
            <Text size="sm" data-testid="family-holders">
              {t('family.holders', { n: formatNumber(data.members_with_benefit) })}
            </Text>
          </Group>
          {data.benefit_grant_type === 'groups' && (
            <Group gap={6} data-testid="family-groups">
              {data.benefit_groups.map((g) => (
                <Badge key={g.id} variant="outline" color="gray" tt="none">
                  {g.name}
                </Badge>
              ))}
            </Group>
          )}
        </Stack>
      </Stack>
      {dialog === 'assign' && (
        <AssignDialog
          current={data}
          pending={mutation.isPending}
          error={mutation.error}
          onClose={() => setDialog(null)}
          onSave={(next) =>
            mutation.mutate(
              { benefit_grant_type: next.type, team_group_ids: [...next.groupIds] },
              {
                onSuccess: (result) => {
                  setDialog(null);
                  done(result);
                },
              },
            )
          }
        />
      )}
      {dialog === 'unassign' && (
        <ConfirmDialog
          title={t('family.unassign.title')}
          action={t('family.unassign_all')}
          pending={mutation.isPending}
          error={mutation.error}
          onClose={() => setDialog(null)}
          onConfirm={() =>
            mutation.mutate(
              { benefit_grant_type: 'none', team_group_ids: [] },
              {
                onSuccess: (result) => {
                  setDialog(null);
                  done(result);
                },
              },
            )
          }
        >
          {t('family.unassign.body', { n: formatNumber(data.members_with_benefit) })}
        </ConfirmDialog>
      )}
    </Card>
  );
}

function AssignDialog({
  current,
  pending,
  error,
  onClose,
  onSave,
}: {
  current: FamilyBenefit;
  pending: boolean;
  error: unknown;
  onClose: () => void;
  onSave: (next: Assignment) => void;
}) {
  const { t } = useTranslation();
  const before = assignmentOf(current);
  const [type, setType] = useState<BenefitGrantType>(current.benefit_grant_type === 'none' ? 'all' : current.benefit_grant_type);
  const [groupIds, setGroupIds] = useState<string[]>(before.groupIds.slice());
  const groups = useBenefitGroupsQuery(true);
  const next: Assignment = { type, groupIds: type === 'groups' ? groupIds : [] };
  const names = new Map([...(groups.data ?? []), ...current.benefit_groups].map((g) => [g.id, g.name]));
  const removed = groupsRemovedBy(before, next);
  const loading = pending || (type === 'groups' && groups.isPending);
  const disabled = assignDisabled(before, next, groups.data?.length ?? 0, loading);

  return (
    <Modal
      opened
      onClose={onClose}
      title={t(current.benefit_grant_type === 'none' ? 'family.assign.title' : 'family.update.title')}
      centered
    >
      <Stack gap="md" data-testid="family-dialog">
        <ModalError error={error} />
        <Radio.Group value={type} onChange={(v) => setType(v as BenefitGrantType)} label={t('family.assign.who')}>
          <Stack gap="xs" mt="xs">
            <Radio value="all" label={t('family.type.all')} data-testid="family-type-all" />
            <Radio value="groups" label={t('family.type.groups')} data-testid="family-type-groups" />
          </Stack>
        </Radio.Group>
        {type === 'groups' &&
          (groups.isError ? (
            <Alert color="red">{t('data_fetch_error')}</Alert>
          ) : (
            <MultiSelect
              label={t('family.assign.groups')}
              placeholder={groups.data?.length === 0 ? t('family.assign.no_groups') : t('family.assign.search')}
              data={(groups.data ?? []).map((g) => ({ value: g.id, label: g.name }))}
              value={groupIds}
              onChange={setGroupIds}
              searchable
              clearable
              nothingFoundMessage={t('family.assign.nothing_found')}
              maxDropdownHeight={190}
              disabled={groups.isPending || groups.data?.length === 0}
              comboboxProps={{ withinPortal: true }}
              data-testid="family-groups-select"
            />
          ))}
        {removed.length > 0 && (
          <Alert color="red" title={t('family.removed.title')} data-testid="family-removed-groups">
            {t('family.removed.body', { groups: removed.map((id) => names.get(id) ?? id).join(', ') })}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button disabled={disabled} loading={pending} onClick={() => onSave(next)} data-testid="family-save">
            {t(current.benefit_grant_type === 'none' ? 'family.assign' : 'family.update')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
