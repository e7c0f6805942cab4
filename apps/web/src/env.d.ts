// Vite's own client types fail tsc here (STACK.md), so the two features used are declared.
declare module '*.css';
interface ImportMeta {
  glob<T>(patterns: string | string[]): Record<string, () => Promise<T>>;
}
