// The policies feature's public entry: what other features may use; its other files are internals.
export * from './EffectivePolicy.tsx';
export * from './PolicyDiff.tsx';
