import { type DownloadId, type OnboardingStage, progressTotal, type WizardStep } from '@latchkey/contracts/client';

/** The step a saved stage resumes at (an unknown or 'resume' stage starts at the beginning). */
export function stepIndexOf(steps: readonly WizardStep[], stage: string): number {
  const i = steps.findIndex((s) => s.stage === stage);
  return Math.max(0, i);
}

/**
 * The progress indicator (spec §2: total steps minus 2): segments for the steps the admin walks
 * between welcome and finish, how many are reached, and the step to name ("Step 1 of 2"). Welcome
 * (and resume) name none and reach none; finish names none and reaches all; a sub-step (1.1) is
 * its step (1).
 */
export function progressAt(
  steps: readonly WizardStep[],
  index: number,
): { total: number; reached: number; current: number | null } {
  const total = progressTotal(steps);
  const step = steps[index];
  if (!step || index <= 0) return { total, reached: 0, current: null };
  if (index >= steps.length - 1) return { total, reached: total, current: null };
  const current = Math.min(total, Math.floor(Number(step.number)));
  return { total, reached: current, current };
}

/** What logging out mid-wizard saves (spec §4): the last step finishes; 1.1 saves the add-to-enterprise stage. */
export function stateOnLogout(step: WizardStep): { show: boolean; enable_console: boolean; stage: OnboardingStage } {
  if (step.stage === 'all_set') return { show: false, enable_console: true, stage: 'all_set' };
  if (step.stage === 'admin_help') return { show: true, enable_console: false, stage: 'add_to_enterprise' };
  return { show: true, enable_console: false, stage: step.stage };
}

/** The download for this browser's operating system, or null (then only 'Other Platforms'). */
export function detectOs(userAgent: string, platform = ''): Exclude<DownloadId, 'all'> | null {
  const ua = `${userAgent} ${platform}`.toLowerCase();
  if (/android/.test(ua)) return 'android';
  if (/iphone|ipad|ipod/.test(ua)) return 'ios';
  if (/windows|win32|win64/.test(ua)) return 'windows';
  if (/mac os|macintosh|macintel|macos/.test(ua)) return 'macos';
  if (/linux|x11|cros/.test(ua)) return 'linux';
  return null;
}
