import { randomUUID } from 'node:crypto';
import type { SiemTool } from '@latchkey/contracts';
import type { Db } from '@latchkey/runtime';
import { expect } from 'vitest';
import { consoleAuth, send } from './clients.ts';
import { createHubDb, postSigned, type RunningHub, startHub, TEAM } from './hub-fixture.ts';
import { SPLUNK_TOKEN } from './splunk-hec-receiver.ts';

/**
 * What the SIEM tests share: a Hub on a database of its own with a console admin signed in, the
 * three SIEM calls made as that admin, the licence server's feed of admin changes, and a wait.
 */

/** A SIEM call's reply, every field any of them answers. */
export type ToolReply = {
  code: string;
  description?: string;
  message_key?: string;
  issues?: { path: string; message: string }[];
  data: SiemTool | null;
};

interface SiemHub {
  db: Db;
  hub: RunningHub;
  /** The console admin's authorization header. */
  admin: Record<string, string>;
  close: () => Promise<void>;
}

/** A Hub started with `env` (SIEM_CA_FILE, pump interval, stand-in URLs…), on a fresh database, and its admin signed in. */
export async function startSiemHub(env: Record<string, string> = {}): Promise<SiemHub> {
  const db = await createHubDb();
  const hub = await startHub(db, env);
  const admin = await consoleAuth(hub);
  return {
    db,
    hub,
    admin,
    close: async () => {
      await hub.app.close();
      await db.close();
    },
  };
}

/** The SIEM calls as the admin of the Hub `at` answers (read when called: the Hub starts in a beforeAll). */
export function siemCalls(at: () => { hub: RunningHub; admin: Record<string, string> }) {
  const call = (path: string, input: Record<string, unknown>) =>
    send<ToolReply>(at().hub, path, { team_slug: TEAM, ...input }, at().admin);
  const update = (id: string, action: string, extra: Record<string, unknown> = {}) =>
    call('/siem/tool/update/', { id, action, ...extra });
  const tools = () => call('/siem/tools/', {});
  return {
    configure: (form: Record<string, unknown>) => call('/siem/tools/configure/', form),
    update,
    tools,
    /** Deactivates and deletes the team's destination, if there is one: what each test leaves goes. */
    async removeDestination() {
      const left = (await tools()).body.data;
      if (left) {
        await update(left.id, 'deactivate');
        await update(left.id, 'delete');
      }
    },
    /** `n` events as the licence server's feed sends them (an admin change in the console); their ids. */
    async adminChanges(n: number): Promise<string[]> {
      const events = adminChangeEvents(n);
      expect((await postSigned(at().hub, '/api/v1/integrate/events/', { team_slug: TEAM, events })).status).toBe(200);
      return events.map((e) => e.id);
    },
  };
}

/** `n` events as the licence server's feed sends them: an admin creating groups in the console (numbered from `from`). */
export const adminChangeEvents = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => ({
    id: randomUUID(),
    actor: 'alex@northwind.example',
    actor_type: 'admin',
    activity: 'group.created',
    component: 'groups',
    target: `Group ${from + i}`,
    occurred_at: new Date().toISOString(),
  }));

/** The Splunk HEC form for the stand-in `r` (its certificate checked). */
export const splunkForm = (r: { port: number }) => ({
  siem_tool: 'splunk',
  url: 'https://127.0.0.1',
  port: String(r.port),
  path: '',
  token: SPLUNK_TOKEN,
  allow_unverified_certificate: false,
});

/** Checks `check` every `stepMs` until it holds; throws once `ms` have passed. */
export async function pollUntil(
  check: () => boolean | Promise<boolean>,
  o: { ms: number; stepMs?: number; what?: string },
): Promise<void> {
  const end = Date.now() + o.ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, o.stepMs ?? 100));
  }
  throw new Error(o.what ? `timed out waiting for ${o.what}` : 'timed out');
}
