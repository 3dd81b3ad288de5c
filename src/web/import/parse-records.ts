/**
 * The records of an import's data, whatever its format: CSV (a header row, then one record per
 * row), JSON (an object or a list of objects) or YAML (one document, a list, or several `---`
 * documents). `auto` picks JSON for data starting with `[` or `{`, YAML for `---` or `key:` lines,
 * else CSV. A record's number is the one the user sees: a CSV data row from 1 after the header, a
 * JSON or YAML object's place in the list from 1.
 */
import { parseAllDocuments } from 'yaml';
import { delimiterOf, ImportInputError, parseCsv } from './csv.js';

export { ImportInputError };

type ImportFormat = 'csv' | 'json' | 'yaml';

interface ImportRecord {
  /** the record's number as the user counts it */
  row: number;
  values: Record<string, unknown>;
}

export interface ParsedData {
  format: ImportFormat;
  records: ImportRecord[];
}

const YAML_START = /^(---|[A-Za-z_][\w-]*\s*:(\s|$)|-\s)/;

function detectFormat(text: string): ImportFormat {
  const start = text.trimStart();
  if (start.startsWith('[') || start.startsWith('{')) return 'json';
  return YAML_START.test(start) ? 'yaml' : 'csv';
}

/** the records of `text`; throws ImportInputError with the row or line for malformed input */
export function parseRecords(text: string, format: string, csvDelimiter: string): ParsedData {
  const chosen: ImportFormat = format === 'csv' || format === 'json' || format === 'yaml' ? format : detectFormat(text);
  if (chosen === 'csv') {
    const table = parseCsv(text, delimiterOf(csvDelimiter, text));
    const records = table.rows.map((fields, i) => {
      const values: Record<string, unknown> = {};
      table.header.forEach((h, k) => {
        // an empty cell is a value not given (NetBox's CSV import: blank = not set)
        if (fields[k] !== '') values[h] = fields[k];
      });
      return { row: i + 1, values };
    });
    return { format: 'csv', records };
  }
  return { format: chosen, records: objectsOf(chosen === 'json' ? parseJson(text) : parseYaml(text)) };
}

function lineAt(text: string, position: number): number {
  let line = 1;
  for (let i = 0; i < position && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

function parseJson(text: string): unknown[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    const message = (err as Error).message;
    const at = /position (\d+)/.exec(message);
    const where = at ? ` at line ${lineAt(text, Number(at[1]))}` : '';
    throw new ImportInputError(`Invalid JSON${where}: ${message.replace(/ in JSON at position \d+.*$/, '')}.`);
  }
  return Array.isArray(doc) ? doc : [doc];
}

function parseYaml(text: string): unknown[] {
  const docs = parseAllDocuments(text, { prettyErrors: true });
  const list = Array.isArray(docs) ? docs : [];
  const out: unknown[] = [];
  for (const doc of list) {
    const err = doc.errors[0];
    if (err) {
      const line = err.linePos?.[0]?.line;
      const first = err.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
      throw new ImportInputError(`Invalid YAML${line ? ` at line ${line}` : ''}: ${first}.`);
    }
    const value: unknown = doc.toJS();
    if (value === null || value === undefined) continue;
    if (Array.isArray(value)) out.push(...value);
    else out.push(value);
  }
  return out;
}

function objectsOf(items: unknown[]): ImportRecord[] {
  return items.map((item, i) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item))
      throw new ImportInputError(`Record ${i + 1}: an object of column names and values is expected.`);
    return { row: i + 1, values: item as Record<string, unknown> };
  });
}
