import type { AppUsage, Member } from '@latchkey/contracts/client';
import { Anchor, Badge, Menu, Text } from '@mantine/core';
import { Link } from 'wouter';
import { type Column, RowMenu } from '../../components/DataTable.tsx';
import { EmailAddress } from '../../components/EmailAddress.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import type { MemberAction } from './api.ts';
import { MemberSourceBadge } from './MemberSource.tsx';

const USAGE_COLORS: Record<AppUsage, string> = { active: 'teal', inactive: 'yellow', unresponsive: 'red' };
const STATUS_COLORS = { invited: 'blue', active: 'gray', suspended: 'orange' } as const;

/** The members table's columns; the last one is the row's action menu. */
export function useMemberColumns(onAction: (a: MemberAction) => void): Column<Member>[] {
  const { t } = useTranslation();
  return [
    {
      key: 'member',
      header: 'members.col.member',
      maxWidth: 280,
      cell: (m) => (
        <>
          <Anchor
            component={Link}
            href={`/users/${encodeURIComponent(m.email)}`}
            size="sm"
            fw={500}
            truncate="end"
            display="block"
            data-testid="member-devices-link"
          >
            {m.name || <EmailAddress address={m.email} />}
          </Anchor>
          {/* Without a name (an invited person) the email is the headline: shown once, not twice. */}
          {m.name && (
            <Text size="xs" c="dimmed" truncate="end">
              <EmailAddress address={m.email} />
            </Text>
          )}
        </>
      ),
    },
    {
      key: 'status',
      header: 'members.col.status',
      cell: (m) => (
        <Badge variant="light" color={STATUS_COLORS[m.status]}>
          {t(`members.status.${m.status}`)}
        </Badge>
      ),
    },
    {
      key: 'licence',
      header: 'members.col.licence',
      cell: (m) => (
        <Badge variant="dot" color={m.licensed ? 'teal' : 'gray'}>
          {t(m.licensed ? 'members.licence.licensed' : 'members.licence.unlicensed')}
        </Badge>
      ),
    },
    {
      key: 'usage',
      header: 'members.col.usage',
      // Someone only invited has not had the chance to use the app: no red "never used" badge.
      cell: (m) =>
        m.status === 'invited' ? (
          <Text size="sm" c="dimmed" data-testid="usage-none">
            –
          </Text>
        ) : (
          <Badge variant="light" color={USAGE_COLORS[m.usage]}>
            {t(`dashboard.adoption.${m.usage}`)}
          </Badge>
        ),
    },
    { key: 'source', header: 'members.col.source', cell: (m) => <MemberSourceBadge source={m.source} /> },
    {
      key: 'last_active',
      header: 'members.col.last_active',
      cell: (m) => <Text size="sm">{m.last_active_at ? formatDateTime(m.last_active_at) : '–'}</Text>,
    },
    {
      key: 'actions',
      header: 'table.actions',
      headerHidden: true,
      width: 48,
      cell: (m) => {
        const emails = [m.email];
        return (
          <RowMenu label={t('members.actions_for', { email: m.email })}>
            {m.status === 'invited' && (
              <Menu.Item onClick={() => onAction({ kind: 'resend', emails })}>{t('members.action.resend')}</Menu.Item>
            )}
            {m.licensed ? (
              <Menu.Item onClick={() => onAction({ kind: 'revoke', emails })}>{t('members.action.revoke')}</Menu.Item>
            ) : (
              <Menu.Item onClick={() => onAction({ kind: 'assign', emails })}>{t('members.action.assign')}</Menu.Item>
            )}
            {m.status === 'active' && (
              <Menu.Item onClick={() => onAction({ kind: 'suspend', emails })}>{t('members.action.suspend')}</Menu.Item>
            )}
            {m.status === 'suspended' && (
              <Menu.Item onClick={() => onAction({ kind: 'restore', emails })}>{t('members.action.restore')}</Menu.Item>
            )}
            <Menu.Divider />
            <Menu.Item color="red.9" onClick={() => onAction({ kind: 'remove', emails })}>
              {t('members.action.remove')}
            </Menu.Item>
          </RowMenu>
        );
      },
    },
  ];
}
