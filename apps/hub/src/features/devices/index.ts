// The devices feature's public entry: what other features may use.
export { type DeviceCaller, type DeviceGuard, requireDevice } from './device-guard.ts';
export { devicesRepository } from './devices.repository.ts';
export { signEnrolmentGrant } from './enrolment-signer.ts';
