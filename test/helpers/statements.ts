import type { TestApp } from './app.js';

/**
 * Statements a request runs, counted as the fewest of a few runs: now and then a request also pays
 * for bookkeeping that is not its own (the token's last use, recorded once a minute; a cache entry
 * aged past its 5 s), which a slow machine makes likelier to fall on the one run measured.
 */
export async function fewestStatements<T>(
  db: { stats: { queries: number } },
  run: () => Promise<T>,
  runs = 3,
): Promise<{ n: number; result: T }> {
  let best: { n: number; result: T } | null = null;
  for (let i = 0; i < runs; i++) {
    const before = db.stats.queries;
    const result = await run();
    const n = db.stats.queries - before;
    if (best === null || n < best.n) best = { n, result };
  }
  return best!;
}

/** A GET that must answer 200: its body, and the fewest statements it ran (fewestStatements). */
// biome-ignore lint/suspicious/noExplicitAny: callers walk the answer by field name
export async function getStatements(t: TestApp, url: string): Promise<{ n: number; body: Record<string, any> }> {
  const { n, result } = await fewestStatements(t.db, () => t.get(url));
  if (result.statusCode !== 200) throw new Error(`GET ${url} answered ${result.statusCode}: ${result.body}`);
  return { n, body: result.json() };
}
