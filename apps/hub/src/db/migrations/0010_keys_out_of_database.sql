-- The Hub's token key now lives in configuration or <DATA_DIR>/keys (platform/keys.ts); main.ts
-- moved a stored one to its file before this ran (moveLegacyKeys), so Hub sessions stay valid.
drop table if exists app_secrets;
