import '@mantine/core/styles.css';
import './theme.css';
import { startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { coldLoadPlan } from './app/cold-start.ts';
import { loadConsoleCode } from './app/router.tsx';
import { prepareFormatters } from './lib/format.ts';
import { setupI18n } from './lib/i18n.ts';
import { getSession } from './lib/session.ts';

// A signed-in console page renders once its code is here: a lazy route's fallback, shown first,
// would hold the page back (lib/remembered.ts). Its code has been on its way since early.ts.
const plan = coldLoadPlan(location.hash, getSession() !== null);
await Promise.all([setupI18n(), plan ? loadConsoleCode(plan.landingScreens) : undefined]);
// The language is known now: its number and date formatters are made while the answers are on their way.
if (plan) prepareFormatters();
const root = document.getElementById('root');
// As a transition the first render yields to the browser every few milliseconds: no long task.
if (root) startTransition(() => createRoot(root).render(<App />));
