// The image's one command: `latchkey server`, `latchkey hub`, `latchkey cli <command>` (the
// server's operator command line), `latchkey hub-cli <command>`, and `latchkey healthcheck`
// (the image's HEALTHCHECK: exit 0 when this container's program answers /readyz with 200). It runs as
// /app/latchkey.mjs (app-files.mjs copies it there), beside the built programs it names.
const PROGRAMS = {
  server: './apps/server/dist/main.mjs',
  hub: './apps/hub/dist/main.mjs',
  cli: './apps/server/dist/cli.mjs',
  'hub-cli': './apps/hub/dist/cli.mjs',
};

const [command, ...args] = process.argv.slice(2);

if (command === 'healthcheck') {
  const port = process.env.PORT ?? '8080';
  const ready = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(3000) }).then(
    (response) => response.ok,
    () => false,
  );
  process.exit(ready ? 0 : 1);
} else if (command && Object.hasOwn(PROGRAMS, command)) {
  // The command lines read their own arguments from process.argv, as when run directly.
  process.argv = [process.argv[0], PROGRAMS[command], ...args];
  await import(PROGRAMS[command]);
} else {
  console.error('usage: latchkey server | hub | cli <command> | hub-cli <command> | healthcheck');
  process.exit(2);
}
