import { Badge, Group } from '@mantine/core';
import { formatTime } from '../../lib/format.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import type { Admin } from './api.ts';

/**
 * Who holds what until when: standing scopes, just-in-time ones running (until their end) or
 * waiting for approval, and the scopes the admin may elevate to.
 */
export function AdminScopes({ admin }: { admin: Admin }) {
  const { t } = useTranslation();
  const open = admin.elevations ?? [];
  const eligible = (admin.eligible_scopes ?? []).filter((s) => !open.some((e) => e.scope === s));
  return (
    <Group gap={6}>
      {admin.scopes.map((s) => (
        <Badge key={s} variant="light" color={s === 'super_admin' ? 'indigo' : 'gray'}>
          {t(`admins.scope.${s}`)}
        </Badge>
      ))}
      {open.map((e) => (
        <Badge
          key={e.id}
          variant={e.status === 'active' ? 'filled' : 'outline'}
          color={e.status === 'active' ? 'indigo' : 'yellow'}
          data-testid="admin-elevation"
          data-status={e.status}
        >
          {e.status === 'active'
            ? t('admins.jit.held_until', { scope: t(`admins.scope.${e.scope}`), time: formatTime(e.expires_at ?? 0) })
            : t('admins.jit.requested', { scope: t(`admins.scope.${e.scope}`) })}
        </Badge>
      ))}
      {eligible.map((s) => (
        <Badge key={s} variant="outline" color="gray" data-testid="admin-eligible">
          {t('admins.jit.eligible', { scope: t(`admins.scope.${s}`) })}
        </Badge>
      ))}
    </Group>
  );
}
