// The SSO feature's public entry (the sso return page's test window uses the test channel).
export { reportTestResult } from './test-channel.ts';
