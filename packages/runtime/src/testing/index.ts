export * from './directory-data.ts';
export * from './fuzz.ts';
export * from './fuzz-limits.ts';
export {
  PLAUSIBLE_BY_NAME,
  plausibleFor,
  SWEEP_NUMBERS,
  SWEEP_STRINGS,
  SWEEP_SUFFIXES,
  sweepBodies,
} from './fuzz-plausible.ts';
export {
  bodiesFor,
  EXTREME_NUMBERS,
  HEAVY_BODIES,
  HOSTILE_STRINGS,
  RAW_BODIES,
  RAW_QUERIES,
  valueFor,
} from './fuzz-values.ts';
export * from './pdf-text.ts';
export * from './slapd.ts';
export * from './smtp-receiver.ts';
export * from './test-db.ts';
