import { call } from './api.ts';

/** Records a console interaction; failures are ignored (analytics never blocks the admin). */
export function trackInteraction(section: string, object: string, interaction_type = 'click'): void {
  void call('analyticsEvent', { interaction_type, object, section }).catch(() => undefined);
}
