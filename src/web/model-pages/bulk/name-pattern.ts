/**
 * NetBox's name patterns for making many components at once: a bracket holding a range or a list
 * expands into one name per member, and several brackets multiply: `Gi0/[1-48]` (48 names),
 * `eth[0-3]`, `[ge,xe]-0/0/[0-9]` (20), `[a-c]` (letters). A bracket with neither `-` nor `,`
 * is kept as written (NetBox's expansion pattern needs one). Numbers are not zero-padded
 * (`[01-10]` gives 1..10), as in NetBox.
 */

const PATTERN_MAX = 1000;

export class PatternError extends Error {}

const EXPANSION = /\[((?:[a-zA-Z0-9]+[,-])+[a-zA-Z0-9]+)\]/;

function members(spec: string): string[] {
  const out: string[] = [];
  for (const part of spec.split(',')) {
    if (!part.includes('-')) {
      out.push(part);
      continue;
    }
    const bounds = part.split('-');
    const [a, b] = bounds as [string, string];
    if (bounds.length !== 2 || !a || !b) throw new PatternError(`Invalid range "${part}".`);
    if (/^\d+$/.test(a) && /^\d+$/.test(b)) {
      const [lo, hi] = [Number(a), Number(b)];
      if (lo > hi) throw new PatternError(`The range "${part}" runs backwards.`);
      if (hi - lo >= PATTERN_MAX) throw new PatternError(`The range "${part}" has more than ${PATTERN_MAX} members.`);
      for (let i = lo; i <= hi; i++) out.push(String(i));
    } else if (/^[a-z]$/.test(a) === /^[a-z]$/.test(b) && /^[a-zA-Z]$/.test(a) && /^[a-zA-Z]$/.test(b)) {
      const [lo, hi] = [a.charCodeAt(0), b.charCodeAt(0)];
      if (lo > hi) throw new PatternError(`The range "${part}" runs backwards.`);
      for (let c = lo; c <= hi; c++) out.push(String.fromCharCode(c));
    } else throw new PatternError(`Invalid range "${part}": both ends must be numbers, or letters of one case.`);
  }
  return out;
}

/** the names a pattern stands for, in order; a PatternError past `max` names or for a bad range */
export function expandPattern(pattern: string, max = PATTERN_MAX): string[] {
  const parts: Array<string | string[]> = [];
  let rest = pattern;
  let count = 1;
  for (let m = EXPANSION.exec(rest); m; m = EXPANSION.exec(rest)) {
    parts.push(rest.slice(0, m.index));
    const list = members(m[1]!);
    count *= list.length;
    if (count > max) throw new PatternError(`This pattern makes more than ${max.toLocaleString('en')} names.`);
    parts.push(list);
    rest = rest.slice(m.index + m[0].length);
  }
  parts.push(rest);
  let names = [''];
  for (const p of parts)
    names = typeof p === 'string' ? names.map((n) => n + p) : names.flatMap((n) => p.map((v) => n + v));
  return names;
}
