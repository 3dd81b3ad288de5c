/**
 * One statement for many concurrent askers of a value that must be current: the PostgreSQL data
 * version (client.ts) is asked by every cached read, and on a busy server one trivial statement
 * per request is most of a cached read's cost.
 *
 * An asker may take an answer only from a statement sent after it asked: its client's write that
 * committed just before must be visible. So while a statement is on its way, newcomers do not
 * join it; they wait for it to settle and share the next one, which one of them sends.
 */
export function sharedAsk<T>(ask: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | null = null;
  let queued: Promise<T> | null = null;
  const send = (): Promise<T> => {
    const p = ask();
    running = p;
    const clear = () => {
      if (running === p) running = null;
    };
    p.then(clear, clear);
    return p;
  };
  return () => {
    if (!running) return send();
    if (!queued) {
      queued = running
        .then(
          () => undefined,
          () => undefined,
        )
        .then(() => {
          queued = null;
          return send();
        });
    }
    return queued;
  };
}
