import { Badge, Button, Menu, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { errorMessage, errorValues } from '../../../lib/api-error.ts';
import { useTranslation } from '../../../lib/use-translation.ts';
import type { Filters } from '../api.ts';
import { SaveSearchDialog } from './SaveSearchDialog.tsx';
import {
  type SavedSearch,
  savedSearchLink,
  useCreateSavedSearch,
  useDeleteSavedSearch,
  useSavedSearchesQuery,
  useUpdateSavedSearch,
} from './saved-searches-api.ts';

type Dialog = 'save' | 'rename' | 'delete' | null;

/**
 * The event log's saved searches beside its search: open one (its filters replace the current
 * ones), save the current filters under a name, and for the one shown update, rename, copy its
 * link or delete it (a shared one: any super admin; a private one: its author), and its author
 * may share it with the team or make it private again.
 */
export function SavedSearchesMenu({
  filters,
  selectedId,
  onOpen,
  onSelected,
}: {
  filters: Filters;
  selectedId: string | null;
  onOpen: (search: SavedSearch) => void;
  onSelected: (id: string | null) => void;
}) {
  const { t } = useTranslation();
  const list = useSavedSearchesQuery();
  const create = useCreateSavedSearch();
  const update = useUpdateSavedSearch();
  const remove = useDeleteSavedSearch();
  const [dialog, setDialog] = useState<Dialog>(null);
  const searches = list.data ?? [];
  const selected = searches.find((s) => s.id === selectedId) ?? null;
  const done = (key: string, name: string) => notifications.show({ color: 'teal', message: t(key, { name }) });
  const close = () => {
    setDialog(null);
    create.reset();
    update.reset();
    remove.reset();
  };

  const switchSharing = (s: SavedSearch) =>
    update.mutate(
      { id: s.id, shared: !s.shared },
      {
        onSuccess: (saved) => done(saved.shared ? 'eventlogs.saved.now_shared' : 'eventlogs.saved.now_private', saved.name),
        onError: (error) => notifications.show({ color: 'red', message: t(errorMessage(error), errorValues(error)) }),
      },
    );

  const copyLink = async (s: SavedSearch) => {
    await navigator.clipboard?.writeText(savedSearchLink(s.id)).catch(() => undefined);
    notifications.show({ color: 'teal', message: t('eventlogs.saved.link_copied') });
  };

  return (
    <>
      <Menu position="bottom-end" width={300} withinPortal>
        <Menu.Target>
          <Button variant="default" size="sm" data-testid="saved-searches-button" maw={260}>
            <Text span size="sm" truncate="end" inherit>
              {selected ? selected.name : t('eventlogs.saved.button')}
            </Text>
          </Button>
        </Menu.Target>
        <Menu.Dropdown data-testid="saved-searches-menu">
          <Menu.Label>{t('eventlogs.saved.button')}</Menu.Label>
          {searches.length === 0 ? (
            <Text size="sm" c="dimmed" px="sm" py={6} data-testid="saved-searches-empty">
              {t('eventlogs.saved.none')}
            </Text>
          ) : (
            searches.map((s) => (
              <Menu.Item
                key={s.id}
                onClick={() => onOpen(s)}
                data-testid="saved-search-item"
                data-name={s.name}
                data-link={savedSearchLink(s.id)}
                bg={s.id === selectedId ? 'var(--mantine-color-default-hover)' : undefined}
                rightSection={
                  s.shared ? (
                    <Badge size="xs" variant="light">
                      {t('eventlogs.saved.shared_badge')}
                    </Badge>
                  ) : null
                }
              >
                <Text size="sm" truncate="end">
                  {s.name}
                </Text>
              </Menu.Item>
            ))
          )}
          <Menu.Divider />
          <Menu.Item onClick={() => setDialog('save')} data-testid="saved-search-save">
            {t('eventlogs.saved.save_current')}
          </Menu.Item>
          {selected ? (
            <>
              {selected.can_manage ? (
                <Menu.Item
                  data-testid="saved-search-update"
                  onClick={() =>
                    update.mutate({ id: selected.id, filters }, { onSuccess: (s) => done('eventlogs.saved.updated', s.name) })
                  }
                >
                  {t('eventlogs.saved.update_current', { name: selected.name })}
                </Menu.Item>
              ) : null}
              {selected.can_manage ? (
                <Menu.Item onClick={() => setDialog('rename')} data-testid="saved-search-rename">
                  {t('eventlogs.saved.rename')}
                </Menu.Item>
              ) : null}
              {selected.can_change_sharing ? (
                <Menu.Item
                  onClick={() => switchSharing(selected)}
                  data-testid="saved-search-sharing"
                  data-shared={String(selected.shared)}
                >
                  {t(selected.shared ? 'eventlogs.saved.unshare' : 'eventlogs.saved.share')}
                </Menu.Item>
              ) : null}
              <Menu.Item onClick={() => void copyLink(selected)} data-testid="saved-search-copy-link">
                {t('eventlogs.saved.copy_link')}
              </Menu.Item>
              {selected.can_manage ? (
                <Menu.Item color="red.9" onClick={() => setDialog('delete')} data-testid="saved-search-delete">
                  {t('eventlogs.saved.delete')}
                </Menu.Item>
              ) : null}
            </>
          ) : null}
        </Menu.Dropdown>
      </Menu>

      {dialog === 'save' || (dialog === 'rename' && selected) ? (
        <SaveSearchDialog
          renaming={dialog === 'rename' ? (selected ?? undefined) : undefined}
          pending={create.isPending || update.isPending}
          error={create.error ?? update.error}
          onClose={close}
          onSave={({ name, shared }) => {
            if (dialog === 'rename' && selected)
              return update.mutate(
                { id: selected.id, name },
                {
                  onSuccess: (s) => {
                    close();
                    done('eventlogs.saved.updated', s.name);
                  },
                },
              );
            create.mutate(
              { name, shared, filters },
              {
                onSuccess: (s) => {
                  close();
                  onSelected(s.id);
                  done('eventlogs.saved.saved', s.name);
                },
              },
            );
          }}
        />
      ) : null}
      {dialog === 'delete' && selected ? (
        <ConfirmDialog
          title={t('eventlogs.saved.delete_title')}
          action={t('eventlogs.saved.delete_action')}
          pending={remove.isPending}
          error={remove.error}
          onClose={close}
          onConfirm={() =>
            remove.mutate(
              { id: selected.id },
              {
                onSuccess: () => {
                  close();
                  onSelected(null);
                  done('eventlogs.saved.deleted', selected.name);
                },
              },
            )
          }
        >
          {t('eventlogs.saved.delete_confirm', { name: selected.name })}
        </ConfirmDialog>
      ) : null}
    </>
  );
}
