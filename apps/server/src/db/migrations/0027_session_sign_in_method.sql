-- How a console session was signed in (password_totp, email_code, sso, family_app, …): requiring SSO
-- ends the sessions of the admins it holds that did not come through SSO. Null for older sessions.
alter table sessions add column sign_in_method text;
