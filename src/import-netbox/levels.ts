/**
 * Objects of a type that refer to others of the same type (a region's parent, an interface's LAG
 * or parent) in the order a write can take them: every object after the ones it names, level by
 * level, since a bulk write resolves references against what is already stored. A loop among
 * them (which NetBox's own checks do not forbid everywhere) is reported by the caller.
 */
import type { Rep } from './source.js';

const refId = (v: unknown): number | null => {
  const id = v && typeof v === 'object' ? (v as Rep).id : v;
  return typeof id === 'number' ? id : null;
};

/** the objects in levels: level 0 names none of the others, level n only objects of levels below n */
export function levels(reps: Rep[], selfRefs: string[]): { levels: Rep[][]; looped: Rep[] } {
  if (!selfRefs.length) return { levels: [reps], looped: [] };
  const ids = new Set(reps.map((r) => Number(r.id)));
  const placed = new Set<number>();
  const out: Rep[][] = [];
  let left = reps;
  while (left.length) {
    const level = left.filter((r) =>
      selfRefs.every((k) => {
        const id = refId(r[k]);
        return id === null || !ids.has(id) || placed.has(id) || id === Number(r.id);
      }),
    );
    if (!level.length) return { levels: out, looped: left };
    for (const r of level) placed.add(Number(r.id));
    out.push(level);
    left = left.filter((r) => !placed.has(Number(r.id)));
  }
  return { levels: out, looped: [] };
}
