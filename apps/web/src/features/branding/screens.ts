/** The branding screen (bundled with the people screens in app/layout/people-screens.ts). */

export { Branding } from './Branding.tsx';
