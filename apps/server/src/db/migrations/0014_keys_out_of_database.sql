-- Keys now live in configuration or <DATA_DIR>/keys (platform/keys.ts); main.ts moved any stored
-- key to its file before this ran (moveLegacyKeys), so sealed authenticator secrets stay readable.
drop table if exists app_secrets;

-- Emailed sign-in codes are now stored as a keyed HMAC; those under the old unkeyed hash
-- cannot be re-keyed (only the 6 digits' hash is known) and live minutes: they are voided.
-- Backup codes are re-keyed on start instead (rekeyLegacyRecoveryCodes), so they keep working.
delete from email_codes;
