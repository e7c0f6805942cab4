// The demo feature's public entry: the demo data main.ts seeds and the tests sign in with.
export * from './approvals.demo.ts';
export * from './onboarding.demo.ts';
export * from './security.demo.ts';
export * from './seed.ts';
export * from './sign-in.demo.ts';
