export function buildIsStale(root: string): boolean;
export function builtOnce(root: string): boolean;
export function build(root: string): unknown;
