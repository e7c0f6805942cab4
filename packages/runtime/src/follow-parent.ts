/**
 * A program started with an IPC channel (by `npm start`) stops when the channel closes: its
 * parent is gone, even killed without a chance to stop it. It stops as on SIGTERM, through the
 * program's own handler when it has one. Started any other way (a service manager, a container,
 * a shell), there is no channel and nothing changes.
 */
export function followParent(): void {
  if (!process.channel) return;
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}
