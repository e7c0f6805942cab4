import type { ApiMap, EndpointInput } from '@latchkey/contracts/client';
import { call, callWithBasic } from '../../lib/api.ts';

/** A call the sign-in steps make, by its contracts name. */
const command =
  <K extends keyof ApiMap>(name: K) =>
  (input: EndpointInput<ApiMap[K]>) =>
    call(name, input);

/** A call authorised by a link's or an app's token in the Basic header instead of a session. */
const withToken =
  <K extends keyof ApiMap>(name: K) =>
  (input: EndpointInput<ApiMap[K]>, token: string) =>
    callWithBasic(name, input, token);

/**
 * Every call of the sign-in steps and the pages opened from an emailed link. They run before the
 * console's query client exists (its code is not in the sign-in bundle) and each is a one-off
 * command with nothing to cache, so these are plain functions, not query hooks.
 */
export const authApi = {
  login: command('login'),
  verifyPassword: command('verifyPassword'),
  verifyOtp: command('verifyOtp'),
  verifyTotp: command('verifyTotp'),
  u2fSignInOptions: command('u2fSignInOptions'),
  verifyU2f: command('verifyU2f'),
  setPasswordFirstLogin: command('setPasswordFirstLogin'),
  passwordResetRequest: command('passwordResetRequest'),
  validatePasswordRequest: command('validatePasswordRequest'),
  changePasswordRequest: withToken('changePasswordRequest'),
  emailLinkVerify: command('emailLinkVerify'),
  adminInvitation: command('adminInvitation'),
  adminInvitationAccept: command('adminInvitationAccept'),
  appLoginVerify: withToken('appLoginVerify'),
  ssoVerifyToken: command('ssoVerifyToken'),
  ssoStart: command('ssoStart'),
};
