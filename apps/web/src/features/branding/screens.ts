/** The branding screen (in the landing screens' chunk, app/landing-screens.ts). */

export { Branding } from './Branding.tsx';
