import { type AccessContext, type AccessRule, type AuxService, accessDenial, type Feature } from '@latchkey/contracts/client';
import type { ComponentType, LazyExoticComponent } from 'react';
import type { IconName } from '../components/Icon.tsx';
import { lazyFrom, remembered } from './remembered.ts';

/**
 * A screen's code, fetched the first time the screen opens. `load` is remembered: once it has
 * resolved (opened or preloaded), the screen renders at once, without a Suspense fallback.
 */
export interface LazyScreen {
  /** The screen's export name in its module. */
  name: string;
  load: () => PromiseLike<unknown>;
  Component: LazyExoticComponent<ComponentType>;
}

/** The screen `name` exported by the module `load` imports. */
export function lazyScreen<M>(load: () => Promise<M>, name: keyof M & string): LazyScreen {
  return screenFrom(remembered(load), name);
}

/** The screen `name` of a module already remembered (one loader shared by several screens). */
export function screenFrom<M>(load: () => PromiseLike<M>, name: keyof M & string): LazyScreen {
  return { name, load, Component: lazyFrom(load, name) };
}

/** The sidebar's three parts: the main sections, the Hub's services, and the settings link at the bottom. */
export type NavSection = 'main' | 'hub' | 'settings';

/** A route's item in the sidebar; it opens the route and follows the route's access rule. */
export interface NavEntry {
  section: NavSection;
  /** Place within its section, lowest first. */
  position: number;
  labelKey: string;
  icon: IconName;
  /** Hidden for family teams even where the route itself would open (spec §2 Layout). */
  hiddenForFamily?: boolean;
  service?: AuxService;
  feature?: Feature;
  /** Other routes that belong to this item (a vault summary is part of the security audit). */
  alsoFor?: readonly string[];
}

/** A screen inside the console layout: its path, its title, and who may open it (spec §2 Route table). */
export interface ConsoleRoute {
  path: string;
  /** i18n key of the page title; the description key is `${titleKey}.description`. */
  titleKey: string;
  rule: AccessRule;
  /** The screen; a route without one says it is coming in a later release. */
  screen?: LazyScreen;
  /** The route's sidebar item, if it has one. */
  nav?: NavEntry;
  /** The screen does not work on small devices (spec §2). */
  desktopOnly?: boolean;
  /** Only while the onboarding wizard must show (spec §2: onboarding is allowed during onboarding). */
  duringOnboarding?: boolean;
  /** Where a refused admin goes instead of '/' (spec §2: family plan → /settings). */
  deniedTo?: string;
  /**
   * The way up from a screen below another: the parent's path (its `:params` are this route's)
   * and title (every settings screen leads back to /settings).
   */
  backTo?: { href: string; titleKey: string };
  /** The screen draws its own header (the wizard). */
  ownHeader?: boolean;
}

/**
 * The route guard's decision (spec §2 Route guard): null when the screen opens, else where the
 * admin goes instead.
 */
export function guardRedirect(route: ConsoleRoute, ctx: AccessContext, wizardShows: boolean): string | null {
  if (accessDenial(route.rule, ctx) !== null) return route.deniedTo ?? '/';
  if (route.duringOnboarding && !wizardShows) return '/';
  return null;
}
