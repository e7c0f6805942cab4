import type { AccessContext, HubServer } from '@latchkey/contracts/client';
import { notifications } from '@mantine/notifications';
import { useEffect, useRef } from 'react';
import { logout } from '../../lib/auth.ts';
import { setSession, useSession } from '../../lib/session.ts';
import { useTranslation } from '../../lib/use-translation.ts';

/** Only Hub screens are open to a recovery agent: without the Hub the console has nothing for them. */
export const needsHub = (ctx: Pick<AccessContext, 'scopes'>): boolean => ctx.scopes.every((s) => s === 'recovery_agent');

/**
 * Hub unreachable (spec §8, §4): at sign-in, an admin who can do nothing without the Hub is
 * signed out with `hub_unreachable`; everyone else is told and works on without Hub tokens.
 * Later, whenever the live state finds the Hub gone, the admin is told once. Returns true while
 * that sign-out is under way: the frame then renders no screen, whose own redirect (the landing
 * page's) would race the sign-out's and lose the message.
 */
export function useHubReachability(ctx: AccessContext | null, hub: HubServer | undefined): boolean {
  const { t } = useTranslation();
  const session = useSession();
  useEffect(() => {
    if (!session?.hubUnreachable || !ctx) return;
    setSession({ ...session, hubUnreachable: false });
    if (needsHub(ctx)) logout('hub_unreachable');
    else notifications.show({ color: 'yellow', message: t('hub.unreachable_at_sign_in'), id: 'hub-unreachable-at-sign-in' });
  }, [session, ctx, t]);

  const wasReachable = useRef(true);
  const reachable = hub?.reachable ?? true;
  useEffect(() => {
    if (wasReachable.current && !reachable)
      notifications.show({ color: 'red', message: t('hub_connection_failed'), id: 'hub-unreachable' });
    wasReachable.current = reachable;
  }, [reachable, t]);
  return Boolean(session?.hubUnreachable && ctx && needsHub(ctx));
}
