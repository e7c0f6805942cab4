export * from './fuzz.ts';
export * from './smtp-receiver.ts';
export * from './test-db.ts';
