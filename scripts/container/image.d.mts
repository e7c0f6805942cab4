export function buildImage(options?: { tag?: string; log?: (line: string) => void }): string;
export function imageSize(tag: string): number;
