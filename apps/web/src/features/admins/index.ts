// The admins feature's public entry: the top bar's just-in-time control (the shell shows it).
export { ElevationControl } from './ElevationControl.tsx';
