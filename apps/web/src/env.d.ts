// Vite's own client types fail tsc here (STACK.md), so the features used are declared.
declare module '*.css';
/** An image shipped with the console: its URL (a file under assets/, or inlined when small). */
declare module '*.svg' {
  const url: string;
  export default url;
}
interface ImportMeta {
  glob<T>(patterns: string | string[]): Record<string, () => Promise<T>>;
}
