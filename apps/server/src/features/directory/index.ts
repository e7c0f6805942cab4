// The directory sync feature's public entry: its routes (the Hub's signed calls).
export { directoryRoutes } from './directory.routes.ts';
