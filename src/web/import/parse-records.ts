/**
 * The records of an import's data, whatever its format: CSV (a header row, then one record per
 * row), JSON (an object or a list of objects) or YAML (one document, a list, or several `---`
 * documents). `auto` picks JSON for data starting with `[` or `{`, YAML for `---` or `key:` lines,
 * else CSV. A record's number is the one the user sees: a CSV data row from 1 after the header, the
 * line a JSON or YAML object starts on.
 */
import { isMap, isSeq, LineCounter, parseAllDocuments } from 'yaml';
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
  /** what a record's number counts: a CSV data row, the line a JSON or YAML object starts on, or its place when several share a line */
  numbering: 'row' | 'line' | 'record';
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
    return { format: 'csv', records, numbering: 'row' };
  }
  const [items, lines] = chosen === 'json' ? [parseJson(text), jsonLines(text)] : parseYaml(text);
  // one-line JSON puts every object on line 1: then they are counted by place
  const byLine = lines.length === items.length && lines.every((l, i) => l > 0 && (i === 0 || l > lines[i - 1]!));
  return { format: chosen, records: objectsOf(items, byLine ? lines : []), numbering: byLine ? 'line' : 'record' };
}

/** the line each top-level object of a JSON document starts on (the document's, or each list member's) */
function jsonLines(text: string): number[] {
  const out: number[] = [];
  let depth = 0;
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') line++;
    else if (c === '"') {
      // skip the string, escapes included
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (c === '{' || c === '[') {
      if (c === '{' && (depth === 0 || (depth === 1 && text.trimStart()[0] === '['))) out.push(line);
      depth++;
    } else if (c === '}' || c === ']') depth--;
  }
  return out;
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

function parseYaml(text: string): [unknown[], number[]] {
  const counter = new LineCounter();
  const docs = parseAllDocuments(text, { prettyErrors: true, lineCounter: counter });
  const list = Array.isArray(docs) ? docs : [];
  const out: unknown[] = [];
  const lines: number[] = [];
  const lineOf = (node: { range?: [number, number, number] | null } | null | undefined) =>
    node?.range ? counter.linePos(node.range[0]).line : 0;
  for (const doc of list) {
    const err = doc.errors[0];
    if (err) {
      const line = err.linePos?.[0]?.line;
      const first = err.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
      throw new ImportInputError(`Invalid YAML${line ? ` at line ${line}` : ''}: ${first}.`);
    }
    const value: unknown = doc.toJS();
    if (value === null || value === undefined) continue;
    if (Array.isArray(value)) {
      out.push(...value);
      const items = isSeq(doc.contents) ? doc.contents.items : [];
      value.forEach((_, k) => lines.push(lineOf(items[k] as { range?: [number, number, number] })));
    } else {
      out.push(value);
      lines.push(isMap(doc.contents) ? lineOf(doc.contents) : 0);
    }
  }
  return [out, lines];
}

/** the objects with the lines they start on (their place from 1 where a line is not known) */
function objectsOf(items: unknown[], lines: number[]): ImportRecord[] {
  return items.map((item, i) => {
    const row = lines[i] || i + 1;
    if (typeof item !== 'object' || item === null || Array.isArray(item))
      throw new ImportInputError(
        `${lines[i] ? 'Line' : 'Record'} ${row}: an object of column names and values is expected.`,
      );
    return { row, values: item as Record<string, unknown> };
  });
}
