import { BADGE_MAX_CHARS, type Group, MAX_GROUP_NAME, MAX_PRIORITY_LEVEL, NO_PRIORITY } from '@latchkey/contracts/client';
import { Button, Modal, NumberInput, Group as Row, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ModalError } from '../../components/ModalError.tsx';
import { formatNumber } from '../../lib/format.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { useGroupMutation } from './api.ts';
import { Badges } from './Badges.tsx';
import { MemberPicker } from './MemberPicker.tsx';

const nameProblem = (name: string): string | null => (name.trim() ? null : 'this field is required');

/** Create a group: its name and, optionally, its first members. */
export function CreateGroupDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const mutation = useGroupMutation();
  const [name, setName] = useState('');
  const [emails, setEmails] = useState<string[]>([]);
  const [touched, setTouched] = useState(false);
  const problem = nameProblem(name);
  return (
    <Modal opened onClose={onClose} title={t('groups.create.title')} centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setTouched(true);
          if (problem) return;
          mutation.mutate(
            { kind: 'create', name: name.trim(), emails },
            {
              onSuccess: () => {
                notifications.show({ color: 'teal', message: t('groups.done.create', { name: name.trim() }) });
                onClose();
              },
            },
          );
        }}
      >
        <Stack gap="md" data-testid="group-create-dialog">
          <ModalError error={mutation.error} />
          <TextInput
            label={t('groups.name')}
            value={name}
            maxLength={MAX_GROUP_NAME}
            onChange={(e) => setName(e.currentTarget.value)}
            onBlur={() => setTouched(true)}
            error={touched && problem ? t(problem) : undefined}
            data-autofocus
            data-testid="group-name"
          />
          <MemberPicker label={t('groups.members')} value={emails} onChange={setEmails} />
          <Row justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={mutation.isPending} disabled={touched && !!problem} data-testid="group-create-submit">
              {t('groups.create')}
            </Button>
          </Row>
        </Stack>
      </form>
    </Modal>
  );
}

export function RenameGroupDialog({ group, onClose }: { group: Group; onClose: () => void }) {
  const { t } = useTranslation();
  const mutation = useGroupMutation();
  const [name, setName] = useState(group.name);
  const problem = nameProblem(name);
  const unchanged = name.trim() === group.name;
  return (
    <Modal opened onClose={onClose} title={t('groups.rename.title')} centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (problem || unchanged) return;
          mutation.mutate(
            { kind: 'rename', id: group.id, name: name.trim() },
            {
              onSuccess: () => {
                notifications.show({ color: 'teal', message: t('groups.done.rename', { name: name.trim() }) });
                onClose();
              },
            },
          );
        }}
      >
        <Stack gap="md" data-testid="group-rename-dialog">
          <ModalError error={mutation.error} />
          <TextInput
            label={t('groups.name')}
            value={name}
            maxLength={MAX_GROUP_NAME}
            onChange={(e) => setName(e.currentTarget.value)}
            error={problem ? t(problem) : undefined}
            data-autofocus
            data-testid="group-name"
          />
          <Row justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button
              type="submit"
              loading={mutation.isPending}
              disabled={!!problem || unchanged}
              data-testid="group-rename-submit"
            >
              {t('common.save')}
            </Button>
          </Row>
        </Stack>
      </form>
    </Modal>
  );
}

/** Priority 1 is first; "No priority" resets it (999999). */
export function PriorityDialog({ group, onClose }: { group: Group; onClose: () => void }) {
  const { t } = useTranslation();
  const mutation = useGroupMutation();
  const [level, setLevel] = useState<number | string>(group.priority_level === NO_PRIORITY ? '' : group.priority_level);
  const valid = typeof level === 'number' && Number.isInteger(level) && level >= 1 && level <= MAX_PRIORITY_LEVEL;
  const save = (next: number | null) =>
    mutation.mutate(
      { kind: 'priority', id: group.id, level: next },
      {
        onSuccess: () => {
          notifications.show({ color: 'teal', message: t('groups.done.priority', { name: group.name }) });
          onClose();
        },
      },
    );
  return (
    <Modal opened onClose={onClose} title={t('groups.priority.title', { name: group.name })} centered>
      <Stack gap="md" data-testid="group-priority-dialog">
        <ModalError error={mutation.error} />
        <Text size="sm" c="dimmed">
          {t('groups.priority.hint')}
        </Text>
        <NumberInput
          label={t('groups.priority')}
          value={level}
          onChange={setLevel}
          min={1}
          max={MAX_PRIORITY_LEVEL}
          allowDecimal={false}
          allowNegative={false}
          data-autofocus
          data-testid="group-priority"
        />
        <Row justify="space-between">
          <Button
            variant="subtle"
            color="gray"
            disabled={group.priority_level === NO_PRIORITY}
            onClick={() => save(null)}
            data-testid="group-priority-reset"
          >
            {t('groups.priority.none')}
          </Button>
          <Row gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button
              loading={mutation.isPending}
              disabled={!valid || level === group.priority_level}
              onClick={() => typeof level === 'number' && save(level)}
              data-testid="group-priority-submit"
            >
              {t('common.save')}
            </Button>
          </Row>
        </Row>
      </Stack>
    </Modal>
  );
}

/** Removing groups asks first, naming them (5, then `+n more`). */
export function RemoveGroupsDialog({ groups, onClose }: { groups: Group[]; onClose: (done: boolean) => void }) {
  const { t } = useTranslation();
  const mutation = useGroupMutation();
  return (
    <ConfirmDialog
      title={t('groups.remove.title', { n: groups.length })}
      action={t('members.action.remove')}
      pending={mutation.isPending}
      error={mutation.error}
      onConfirm={() =>
        mutation.mutate(
          { kind: 'remove', ids: groups.map((g) => g.id) },
          {
            onSuccess: () => {
              notifications.show({ color: 'teal', message: t('groups.done.remove', { n: formatNumber(groups.length) }) });
              onClose(true);
            },
          },
        )
      }
      onClose={() => onClose(false)}
      testId="group-remove-dialog"
      confirmTestId="group-remove-confirm"
    >
      <Text size="sm">{t('groups.remove.body', { n: formatNumber(groups.length) })}</Text>
      <Badges items={groups.map((g) => g.name)} max={BADGE_MAX_CHARS} />
    </ConfirmDialog>
  );
}
