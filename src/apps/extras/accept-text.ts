/**
 * Whether a client asks for text/plain over JSON (NetBox's render actions offer JSON first, then
 * text, as Django REST framework picks renderers): text only when the Accept header names
 * text/plain (or text/*) with a quality above JSON's. `*\/*` and no header get JSON.
 */
function quality(ranges: Array<[string, number]>, type: string): number {
  const major = `${type.split('/')[0]}/*`;
  let best = -1;
  let specificity = -1;
  for (const [t, q] of ranges) {
    const s = t === type ? 2 : t === major ? 1 : t === '*/*' ? 0 : -1;
    if (s > specificity) [specificity, best] = [s, q];
  }
  return specificity < 0 ? 0 : best;
}

export function wantsText(accept: string | undefined): boolean {
  if (!accept?.includes('text/')) return false;
  const ranges = accept.split(',').map((part): [string, number] => {
    const [type = '', ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const n = q ? Number(q.slice(2)) : 1;
    return [type.trim().toLowerCase(), Number.isFinite(n) ? n : 0];
  });
  const text = quality(ranges, 'text/plain');
  const named = ranges.some(([t]) => t === 'text/plain' || t === 'text/*');
  return named && text > 0 && text > quality(ranges, 'application/json');
}
