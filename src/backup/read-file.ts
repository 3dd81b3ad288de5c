/** Reads a backup file line by line, turning gzip and JSON failures into one-line refusals. */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { BackupError } from './format.js';

export type Line = { kind: 'row'; text: string; row: Record<string, unknown> } | { kind: 'marker'; value: unknown[] };

export async function* readLines(file: string): AsyncGenerator<{ first: unknown } | Line> {
  const input = createReadStream(file);
  const gunzip = createGunzip();
  let failure: Error | null = null;
  input.on('error', (e) => {
    failure = new BackupError(`cannot read ${file}: ${e.message}`);
    gunzip.destroy();
  });
  gunzip.on('error', (e) => {
    failure ??= new BackupError(`${file} is not a whole gzip file (${e.message}): truncated, or not a backup`);
  });
  const lines = createInterface({ input: input.pipe(gunzip), crlfDelay: Number.POSITIVE_INFINITY });
  let n = 0;
  try {
    for await (const text of lines) {
      n++;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        throw new BackupError(`${file} is not a backup: line ${n} is not JSON`);
      }
      if (n === 1) yield { first: value };
      else if (Array.isArray(value)) yield { kind: 'marker', value };
      else if (value && typeof value === 'object') yield { kind: 'row', text, row: value as Record<string, unknown> };
      else throw new BackupError(`${file} is not a backup: line ${n} is neither a row nor a marker`);
    }
  } catch (e) {
    throw failure ?? e;
  }
  if (failure) throw failure;
  if (n === 0) throw new BackupError(`${file} is empty or not a backup`);
}
