export * from './test-db.ts';
