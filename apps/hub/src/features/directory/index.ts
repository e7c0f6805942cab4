// The directory sync feature's public entry: the service app.ts starts and its routes.

export { directoryRoutes } from './directory.routes.ts';
export { createDirectorySync, type DirectorySync } from './directory-sync.service.ts';
