/**
 * CSV as RFC 4180 writes it: fields in double quotes may hold the delimiter, doubled quotes and
 * line breaks; records end in LF or CRLF. The first record is the header. A malformed input (an
 * unclosed quote, text after a closing quote, a record with another number of fields than the
 * header) is an error naming the data row as the user counts it (the first row after the header
 * is row 1).
 */

export class ImportInputError extends Error {}

export type Delimiter = ',' | ';' | '|' | '\t';

const DELIMITERS: Record<string, Delimiter> = { comma: ',', semicolon: ';', pipe: '|', tab: '\t' };

/** the delimiter a form's `csv_delimiter` names (auto|comma|semicolon|pipe|tab), or the one the header line uses most */
export function delimiterOf(choice: string, text: string): Delimiter {
  const named = DELIMITERS[choice];
  if (named) return named;
  const header = text.slice(0, text.search(/\r?\n|$/));
  let best: Delimiter = ',';
  let most = 0;
  for (const d of [',', ';', '|', '\t'] as Delimiter[]) {
    const n = header.split(d).length - 1;
    if (n > most) [best, most] = [d, n];
  }
  return best;
}

export interface CsvTable {
  header: string[];
  /** each data record's fields, as many as the header's */
  rows: string[][];
}

/** the records of `text`; throws ImportInputError for malformed CSV */
export function parseCsv(text: string, delimiter: Delimiter): CsvTable {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let i = 0;
  const n = text.length;
  // a record that is one empty field is a blank line: skipped, as spreadsheets write them at the end
  const endRecord = () => {
    record.push(field);
    field = '';
    if (!(record.length === 1 && record[0] === '')) records.push(record);
    record = [];
  };
  while (i < n) {
    const c = text[i]!;
    if (c === '"' && field === '') {
      // a quoted field: up to the quote not doubled
      let j = i + 1;
      let value = '';
      for (;;) {
        const q = text.indexOf('"', j);
        if (q < 0) throw new ImportInputError(`Row ${records.length}: a quoted field is not closed.`);
        value += text.slice(j, q);
        if (text[q + 1] === '"') {
          value += '"';
          j = q + 2;
          continue;
        }
        j = q + 1;
        break;
      }
      const next = text[j];
      if (next !== undefined && next !== delimiter && next !== '\n' && next !== '\r')
        throw new ImportInputError(`Row ${records.length}: text after a closing quote.`);
      field = value;
      i = j;
      continue;
    }
    if (c === delimiter) {
      record.push(field);
      field = '';
      i++;
    } else if (c === '\n' || c === '\r') {
      endRecord();
      i += c === '\r' && text[i + 1] === '\n' ? 2 : 1;
    } else {
      const stop = nextSpecial(text, i, delimiter);
      field += text.slice(i, stop);
      i = stop;
    }
  }
  if (field !== '' || record.length) endRecord();
  const [header, ...rows] = records;
  if (!header) throw new ImportInputError('The data is empty: a header row naming the columns is required.');
  rows.forEach((r, k) => {
    if (r.length !== header.length)
      throw new ImportInputError(`Row ${k + 1}: ${r.length} fields where the header has ${header.length}.`);
  });
  return { header: header.map((h) => h.trim()), rows };
}

function nextSpecial(text: string, from: number, delimiter: string): number {
  let i = from;
  while (i < text.length) {
    const c = text[i];
    if (c === delimiter || c === '\n' || c === '\r') return i;
    i++;
  }
  return i;
}
