export function migrationProblems(file: string, text: string): string[];
export function lintMigrations(root: string): string[];
