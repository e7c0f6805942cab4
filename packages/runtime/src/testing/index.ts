export * from './fuzz.ts';
export * from './fuzz-limits.ts';
export * from './smtp-receiver.ts';
export * from './test-db.ts';
