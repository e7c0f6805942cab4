import type { AccessContext, Team } from '@latchkey/contracts/client';
import { createContext, useContext } from 'react';

/** What the shell hands to every console page once team, scopes and services are known. */
export interface ConsoleContext {
  ctx: AccessContext;
  team: Team;
  restricted: boolean;
}

const Context = createContext<ConsoleContext | null>(null);
export const ConsoleContextProvider = Context.Provider;

export function useConsoleContext(): ConsoleContext {
  const value = useContext(Context);
  if (!value) throw new Error('useConsoleContext outside the console shell');
  return value;
}
