/**
 * A document's errors keyed by where they are: `interfaces[3].type`, `manufacturer`, and with
 * several documents `[1].front-ports[0].rear_port`, each with its messages, so a person (or the
 * import page) reads which key of which document failed.
 */
import { ApiError } from '../../../core/errors.js';

export type KeyedErrors = Record<string, string[]>;

/** a document failed: nothing of it, nor of the documents beside it, is kept */
export class LibraryInvalid extends Error {
  constructor(readonly errors: KeyedErrors) {
    super('invalid device-type library document');
  }
}

const NON_FIELD = new Set(['__all__', 'non_field_errors', 'detail']);

export function at(prefix: string, key: string): string {
  return prefix ? `${prefix}.${key}` : key;
}

/** the write path's 400 body (a dict, or an aligned list for several items) under `prefix` */
function keyedErrors(prefix: string, body: unknown, out: KeyedErrors = {}): KeyedErrors {
  const add = (key: string, message: string) => {
    const k = key || 'non_field_errors';
    out[k] = [...(out[k] ?? []), message];
  };
  if (typeof body === 'string') add(prefix, body);
  else if (Array.isArray(body)) {
    for (const [i, v] of body.entries())
      if (typeof v === 'string') add(prefix, v);
      else keyedErrors(`${prefix}[${i}]`, v, out);
  } else if (body && typeof body === 'object') {
    for (const [k, v] of Object.entries(body)) keyedErrors(NON_FIELD.has(k) ? prefix : at(prefix, k), v, out);
  }
  return out;
}

/** runs a write; its validation errors become keyed ones under `prefix` */
export async function keyedWrite<T>(prefix: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (err instanceof ApiError && err.statusCode === 400) throw new LibraryInvalid(keyedErrors(prefix, err.body));
    throw err;
  }
}

export function fail(key: string, message: string): never {
  throw new LibraryInvalid({ [key]: [message] });
}
