// The sign-in feature's public entry: what other features may use; its other files are internals.
export * from './CodeBoxes.tsx';
