/**
 * CSV as RFC 4180 writes it: fields separated by commas, lines ended by CRLF, a field quoted
 * (its quotes doubled) when it holds a comma, a quote or a line end.
 *
 * Spreadsheets run a cell that starts with `=`, `+`, `-` or `@` (or a tab or carriage return
 * before one) as a formula: a device description `=HYPERLINK(...)` would become a link the
 * exporting user never wrote. `guardFormula` puts an apostrophe before such a text, which a
 * spreadsheet shows as text; a number (`-5`, `+1.5`) stays as it is.
 */

const NEEDS_QUOTES = /[",\r\n]/;
const FORMULA_START = /^[=+\-@\t\r]/;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

function csvField(value: string): string {
  return NEEDS_QUOTES.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export function csvLine(values: readonly string[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

/** a cell a spreadsheet shows as text, never runs */
export function guardFormula(value: string): string {
  return FORMULA_START.test(value) && !NUMBER.test(value) ? `'${value}` : value;
}
