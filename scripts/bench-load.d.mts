import type { LoadJob, LoadResult } from './bench-stats.ts';

export function run(job: LoadJob): Promise<LoadResult>;
