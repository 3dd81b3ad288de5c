/**
 * The query string of a browsable page as ordered pairs, and the tidy-up a GET form without
 * JavaScript needs: a browser submits every field, empty ones too (`?q=&status=`), and the "add a
 * filter" inputs as two fields (`_filter_name=status&_filter_value=active`). The page answers such
 * a URL with a redirect to the URL the API understands (`?status=active`), so the JSON request
 * behind the page never sees an empty filter value (which it would refuse with a 400: docs/api-differences.md, "Strict input").
 */

export type Pairs = Array<[string, string]>;

export const FILTER_NAME = '_filter_name';
export const FILTER_VALUE = '_filter_value';

export function splitUrl(url: string): { path: string; pairs: Pairs } {
  const q = url.indexOf('?');
  if (q < 0) return { path: url, pairs: [] };
  return { path: url.slice(0, q), pairs: [...new URLSearchParams(url.slice(q + 1))] };
}

export function joinUrl(path: string, pairs: Pairs): string {
  return pairs.length ? `${path}?${new URLSearchParams(pairs).toString()}` : path;
}

/** The URL a GET form's submission stands for, or null when it is already tidy. */
export function tidyQuery(url: string): string | null {
  const { path, pairs } = splitUrl(url);
  if (!pairs.length) return null;
  let changed = false;
  let addName = '';
  let addValue = '';
  const out: Pairs = [];
  for (const [k, v] of pairs) {
    if (k === FILTER_NAME) addName = v.trim();
    else if (k === FILTER_VALUE) addValue = v;
    else if (k !== '' && v !== '') {
      out.push([k, v]);
      continue;
    }
    changed = true;
  }
  if (addName && addValue !== '') out.push([addName, addValue]);
  return changed ? joinUrl(path, out) : null;
}
