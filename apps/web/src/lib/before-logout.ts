/**
 * Work a screen must do before the admin signs out on purpose (the onboarding wizard saves its
 * stage, spec §4). Each task gets a moment; a failing or slow one never blocks the sign-out.
 */
type Task = () => Promise<unknown>;
const tasks = new Set<Task>();

export function registerBeforeLogout(task: Task): () => void {
  tasks.add(task);
  return () => {
    tasks.delete(task);
  };
}

export async function runBeforeLogout(timeoutMs = 3000): Promise<void> {
  const all = Promise.allSettled([...tasks].map((task) => task()));
  await Promise.race([all, new Promise((resolve) => setTimeout(resolve, timeoutMs))]);
}
