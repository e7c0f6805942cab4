export const KEY_FILE: string;
export function ensureKey(dataDir: string): { file: string; jwk: string };
export function demoTrust(
  serverDataDir: string,
  hubDataDir: string,
): { serverKey: string; serverKeyFile: string; hubKey: string; hubKeyFile: string };
