import { Socket } from 'node:net';

/**
 * What this process's sockets did while `run` ran (and what it returned), in order: `write <bytes>`
 * for each write (a flush of corked messages is one, its bytes as latin1) and `read` for each chunk
 * read. Tests use it to see how statements reach PostgreSQL: which go out together, and whether an
 * answer came between two writes.
 */
export async function socketEvents<T>(run: () => Promise<T>): Promise<{ events: string[]; result: T }> {
  const proto = Socket.prototype as unknown as Record<string, (...a: unknown[]) => unknown>;
  const [write, writev, emit] = [proto._write!, proto._writev!, proto.emit!];
  const events: string[] = [];
  proto._write = function (this: Socket, chunk: unknown, ...rest: unknown[]) {
    events.push(`write ${Buffer.from(chunk as Buffer).toString('latin1')}`);
    return write.call(this, chunk, ...rest);
  };
  proto._writev = function (this: Socket, chunks: unknown, ...rest: unknown[]) {
    events.push(
      `write ${(chunks as Array<{ chunk: Buffer }>).map((c) => Buffer.from(c.chunk).toString('latin1')).join('')}`,
    );
    return writev.call(this, chunks, ...rest);
  };
  proto.emit = function (this: Socket, name: unknown, ...rest: unknown[]) {
    if (name === 'data') events.push('read');
    return emit.call(this, name, ...rest);
  };
  try {
    return { events, result: await run() };
  } finally {
    Object.assign(proto, { _write: write, _writev: writev, emit });
  }
}

/** the bytes of every socket write while `run` runs (socketEvents, reads left out) */
export async function socketWrites(run: () => Promise<unknown>): Promise<string[]> {
  return (await socketEvents(run)).events.filter((e) => e.startsWith('write ')).map((e) => e.slice(6));
}
