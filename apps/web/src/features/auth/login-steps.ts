/** The sign-in steps after the email, loaded once the email is known. */

export { AdminInvitationPage } from './AdminInvitationPage.tsx';
export { BackupCodeStep } from './BackupCodeStep.tsx';
export { EmailLinkPage } from './EmailLinkPage.tsx';
export { FamilyLoginPage } from './FamilyLoginPage.tsx';
export { ForgotPasswordStep } from './ForgotPasswordStep.tsx';
export { NoAdminFoundStep } from './NoAdminFoundStep.tsx';
export { OtpStep } from './OtpStep.tsx';
export { PasswordStep } from './PasswordStep.tsx';
export { ResetPasswordStep } from './ResetPasswordStep.tsx';
export { SetPasswordStep } from './SetPasswordStep.tsx';
export { SsoOtpChoiceStep } from './SsoOtpChoiceStep.tsx';
export { SsoReturnPage } from './SsoReturnPage.tsx';
export { TotpStep } from './TotpStep.tsx';
export { U2fStep } from './U2fStep.tsx';
