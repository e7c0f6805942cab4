// The admins feature's public entry: the top bar's just-in-time control (the shell shows it), and
// the team's administrators list (alert rules' e-mail goes to administrators chosen from it).
export { type Admin, useAdminsQuery } from './api.ts';
export { ElevationControl } from './ElevationControl.tsx';
