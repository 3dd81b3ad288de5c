/** CSV as the exports write it (web/export/csv.ts), read back for tests. */

/** RFC 4180 records of a CSV body (quoted fields with commas, quotes and line ends) */
export function parseCsv(body: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  // a field (quoted or bare), then what ends it: a comma, a line end, or the end of the body
  for (const m of body.matchAll(/("(?:[^"]|"")*"|[^",\r\n]*)(,|\r\n|$)/g)) {
    if (m.index === body.length) break;
    const raw = m[1]!;
    row.push(raw.startsWith('"') ? raw.slice(1, -1).replace(/""/g, '"') : raw);
    if (m[2] !== ',') {
      rows.push(row);
      row = [];
    }
  }
  return rows;
}
