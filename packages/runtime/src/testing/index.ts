export * from './fuzz.ts';
export * from './smtp-receiver.ts';
export * from './test-db.ts';
export * from './fuzz-limits.ts';
