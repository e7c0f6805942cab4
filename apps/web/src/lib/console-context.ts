import type { AccessContext, Team } from '@latchkey/contracts/client';
import { createContext, useContext } from 'react';
import type { ConsoleRoute } from './console-route.ts';

/** What the shell hands to every console page once team, scopes and services are known. */
interface ConsoleContext {
  ctx: AccessContext;
  team: Team;
  restricted: boolean;
  /** The settings screens of every feature, in the settings index's order (the app gathers them). */
  settingsRoutes: readonly ConsoleRoute[];
}

const Context = createContext<ConsoleContext | null>(null);
export const ConsoleContextProvider = Context.Provider;

export function useConsoleContext(): ConsoleContext {
  const value = useContext(Context);
  if (!value) throw new Error('useConsoleContext outside the console shell');
  return value;
}
