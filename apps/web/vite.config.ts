import react from '@vitejs/plugin-react';
import { defineConfig, type HtmlTagDescriptor, type Plugin } from 'vite';

type Chunk = { type: string; fileName: string; isEntry?: boolean; name?: string; facadeModuleId?: string | null };

/** A build plugin that adds one tag to index.html's head for each chunk `pick` chooses. */
function tagPerChunk(name: string, pick: (c: Chunk) => boolean, tag: (fileName: string) => HtmlTagDescriptor): Plugin {
  return {
    name,
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (_html, { bundle }) =>
        (Object.values(bundle ?? {}) as Chunk[]).filter((c) => c.type === 'chunk' && pick(c)).map((c) => tag(`./${c.fileName}`)),
    },
  };
}

/**
 * `<link rel="modulepreload">` in index.html for chunks every page loads but only asks for once
 * its code runs: English (the fallback language) and the table of call paths. Fetched while the
 * entry downloads, not after it has been evaluated (a faster cold load).
 */
const preloadAtStart = (modules: RegExp[]) =>
  tagPerChunk(
    'latchkey-preload-at-start',
    (c) => Boolean(c.facadeModuleId && modules.some((m) => m.test(c.facadeModuleId ?? ''))),
    (href) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: '', href }, injectTo: 'head' }),
  );

/**
 * The `early` entry (src/early.ts) as an async module script in index.html: it runs once its own
 * few modules have arrived, before the main entry's React and Mantine (a faster cold load).
 */
const earlyEntry = () =>
  tagPerChunk(
    'latchkey-early-entry',
    (c) => Boolean(c.isEntry) && c.name === 'early',
    (src) => ({
      tag: 'script',
      attrs: { type: 'module', async: true, fetchpriority: 'high', crossorigin: '', src },
      injectTo: 'head-prepend',
    }),
  );

export default defineConfig({
  plugins: [react(), earlyEntry(), preloadAtStart([/\/src\/locales\/en\.json$/, /\/contracts\/src\/routes\.ts$/])],

  base: './',
  build: {
    target: 'es2022',
    manifest: true,
    sourcemap: false,
    reportCompressedSize: false,
    rolldownOptions: {
      input: { index: 'index.html', early: 'src/early.ts' },
      output: {
        // Everything the first page imports statically goes in one chunk (App and its dependencies,
        // recursively). Left alone, the bundler splits what the first page shares with lazy screens
        // into many tiny chunks, and each costs the sign-in page its own request and overhead.
        // The same for the signed-in frame and for the usual landing screens: a cold
        // load of the dashboard fetches three chunks, not seventy (each waits for a connection).
        codeSplitting: {
          groups: [
            // First: what the early entry needs (calls, session, prefetch) stays small, not in boot.
            { name: 'cold-start', test: /\/src\/app\/cold-start\.ts$/ },
            { name: 'boot', test: /\/src\/app\/App\.tsx$/ },
            // Before the console's: what the sign-in steps share with it stays theirs to load.
            { name: 'login', test: /\/src\/features\/auth\/login-steps\.ts$/ },
            { name: 'console', test: /\/src\/app\/layout\/Shell\.tsx$/ },
            { name: 'landing', test: /\/src\/app\/landing-screens\.ts$/ },
          ],
        },
      },
    },
  },
  server: { proxy: { '/api': 'http://127.0.0.1:8080', '/oauth': 'http://127.0.0.1:8080' } },
});
