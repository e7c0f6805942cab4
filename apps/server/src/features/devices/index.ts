// The devices feature's public entry: what other features may use; its other files are internals.
export * from './devices.demo.ts';
export * from './devices.repository.ts';
