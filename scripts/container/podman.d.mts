import type { SpawnSyncOptions } from 'node:child_process';

export const RUNC: string;
export const RUN_FLAGS: string[];
export function podmanMissing(): string | null;
export function podman(args: string[], options?: SpawnSyncOptions): string;
export function kubeConf(): string;
