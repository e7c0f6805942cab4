export * from './config.ts';
export * from './db.ts';
export * from './errors.ts';
export * from './http.ts';
export * from './mail.ts';
export * from './migrate.ts';
export * from './openapi.ts';
export * from './tokens.ts';
