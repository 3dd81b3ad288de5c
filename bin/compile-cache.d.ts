// Types of compile-cache.js (plain JavaScript, so it runs before any TypeScript can be compiled).
export declare function sourceFingerprint(root?: string): string;
export declare function compiledEntry(options?: { root?: string; entry?: string; cacheDir?: string }): Promise<string>;
export declare function latin1Source(text: string): string;
export declare function compiledModules(options: {
  root?: string;
  entries: string[];
  cacheDir?: string;
}): Promise<string>;
