/**
 * A data file's content, for code that renders from it (config contexts and templates synced from
 * a data source: NetBox 3.7's `data_file`). NetBox reads DataFile.data as UTF-8 text
 * (data_as_string, None when it is not UTF-8) and its structured data as YAML (get_data, which
 * reads JSON too); readDataFileText and readDataFileData do the same.
 */
import { sql } from 'kysely';
import { parse as parseYaml } from 'yaml';
import type { RequestContext } from '../../core/context.js';

export interface DataFileContent {
  id: number;
  source_id: number;
  path: string;
  hash: string;
  /** the bytes as synced */
  data: Buffer;
}

/** One data file with its bytes, or null when no such file exists. No permission is checked. */
export async function readDataFile(rc: Pick<RequestContext, 'q'>, id: number): Promise<DataFileContent | null> {
  const res = await sql<{ id: number; source_id: number; path: string; hash: string; data: Uint8Array }>`
    select f.id, f.source_id, f.path, f.hash, d.data from core_datafile f join core_datafile_data d on d.file_id = f.id
    where f.id = ${id}`.execute(rc.q);
  const r = res.rows[0];
  if (!r) return null;
  // pg returns a Buffer, PGlite a Uint8Array
  return {
    id: Number(r.id),
    source_id: Number(r.source_id),
    path: r.path,
    hash: r.hash,
    data: Buffer.from(r.data.buffer, r.data.byteOffset, r.data.byteLength),
  };
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** A read file's content as text (NetBox data_as_string); null when it is not valid UTF-8. */
export function textOf(file: DataFileContent): string | null {
  try {
    return UTF8.decode(file.data);
  } catch {
    return null;
  }
}

/** The file's content as text; null when the file does not exist or is not valid UTF-8. */
export async function readDataFileText(rc: Pick<RequestContext, 'q'>, id: number): Promise<string | null> {
  const file = await readDataFile(rc, id);
  return file ? textOf(file) : null;
}

/**
 * The file's content parsed as YAML (JSON included), as NetBox's DataFile.get_data; undefined when
 * the file does not exist or is not UTF-8. Throws the parser's error when the text is no YAML.
 */
export async function readDataFileData(rc: Pick<RequestContext, 'q'>, id: number): Promise<unknown> {
  const text = await readDataFileText(rc, id);
  return text === null ? undefined : (parseYaml(text) as unknown);
}
