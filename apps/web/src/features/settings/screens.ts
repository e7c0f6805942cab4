/** The settings index, its own lazy chunk. */
export { SettingsIndex } from './SettingsIndex.tsx';
