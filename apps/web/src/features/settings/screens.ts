/** The settings index (issue 16). */
export { SettingsIndex } from './SettingsIndex.tsx';
