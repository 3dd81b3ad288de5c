/**
 * The order a copy writes object types in, derived from the model declarations: a type comes
 * after every type its writable references point at (regions and tenants before sites, device
 * types before devices), and after the types whose read-only references point at it (a cable after
 * the ports whose `cable` it fills, a module after the bays it fills). Where references form a
 * cycle (a device's primary address is assigned to one of its interfaces; a virtual chassis names
 * its master and each member its chassis), the nullable references that close it are written in
 * a second pass, once every object exists. A type's references to itself (a region's parent, an
 * interface's LAG) are written parents first, level by level (levels.ts).
 */
import { type Dialect, servedIn } from '../core/model/dialect.js';
import type { ModelDef } from '../core/model/types.js';
import type { Registry } from '../core/model/registry.js';

export interface Step {
  model: ModelDef;
  /** references written in the second pass (field keys) */
  deferred: Set<string>;
  /** references to the type itself (ordered by levels) */
  selfRefs: string[];
}

export interface Skipped {
  model: string;
  reason: string;
}

/**
 * Types no copy writes: what the service derives (content types, tagged items, a cable's
 * terminations, synced data files, jobs) and the change log, which is copied apart (changelog.ts)
 */
const DERIVED: Record<string, string> = {
  'extras.contenttype': 'derived from the models',
  'core.objecttype': 'derived from the models',
  'extras.taggeditem': "written with each object's tags",
  'dcim.cabletermination': 'written with each cable',
  'core.datafile': 'synced from its data source, not copied: sync the data sources after the copy',
  'core.job': 'background jobs are not copied',
  'extras.objectchange': 'copied as the change log, after the objects',
  // ephemeral, per user: a copy of someone's notifications would notify them again
  'extras.notification': 'notifications are not copied',
};

interface Edge {
  to: string;
  /** the field that makes it, or null when the edge is implied (a generic reference to any type) */
  field: string | null;
  deferrable: boolean;
}

function edgesOf(model: ModelDef, copied: Set<string>): Edge[] {
  const edges: Edge[] = [];
  for (const [key, f] of Object.entries(model.fields)) {
    if ((f.kind === 'fk' || f.kind === 'm2m') && f.to && f.to !== model.name && copied.has(f.to)) {
      // a read-only reference is filled by the other side's write (a port's cable by the cable)
      if (f.readOnly) continue;
      edges.push({ to: f.to, field: key, deferrable: f.kind === 'm2m' || !!f.nullable });
    } else if (f.kind === 'contenttype' && !f.readOnly) {
      for (const t of f.types ?? [])
        if (t !== model.name && copied.has(t)) edges.push({ to: t, field: null, deferrable: false });
    }
  }
  // tags and custom field values name definitions that must be there first
  for (const [flag, to] of [
    [model.tags, 'extras.tag'],
    [model.customFields, 'extras.customfield'],
  ] as const)
    if (flag && model.name !== to && copied.has(to)) edges.push({ to, field: null, deferrable: false });
  return edges;
}

/** read-only references: the target is written after this type (the cable after its ports) */
function reverseEdges(model: ModelDef, copied: Set<string>): string[] {
  return Object.values(model.fields)
    .filter((f) => f.kind === 'fk' && f.readOnly && f.to && f.to !== model.name && copied.has(f.to))
    .map((f) => f.to!);
}

/** a generic reference to any type (a journal entry's object, a contact's assignment): after every other type */
function refersToAny(model: ModelDef): boolean {
  return Object.values(model.fields).some((f) => f.kind === 'contenttype' && !f.readOnly && !f.types);
}

/** whether a type's unmet references lead back to it (only such references are worth deferring) */
function inCycle(name: string, unmet: (name: string) => Edge[]): boolean {
  const seen = new Set<string>();
  const stack = unmet(name).map((e) => e.to);
  while (stack.length) {
    const n = stack.pop()!;
    if (n === name) return true;
    if (seen.has(n)) continue;
    seen.add(n);
    for (const e of unmet(n)) stack.push(e.to);
  }
  return false;
}

export function importPlan(registry: Registry, dialect: Dialect): { steps: Step[]; skipped: Skipped[] } {
  const skipped: Skipped[] = [];
  const models = registry.all().filter((m) => {
    if (!servedIn(m, dialect)) return false;
    const why = DERIVED[m.name] ?? (m.readOnly ? 'read-only' : undefined);
    if (why) skipped.push({ model: m.name, reason: why });
    return !why;
  });
  const copied = new Set(models.map((m) => m.name));
  const pending = new Map<string, Edge[]>();
  for (const m of models) pending.set(m.name, edgesOf(m, copied));
  for (const m of models)
    for (const to of reverseEdges(m, copied)) pending.get(to)!.push({ to: m.name, field: null, deferrable: false });
  const anyTypes = models.filter(refersToAny).map((m) => m.name);
  for (const m of models) {
    if (!refersToAny(m)) continue;
    for (const other of models)
      if (!anyTypes.includes(other.name)) pending.get(m.name)!.push({ to: other.name, field: null, deferrable: false });
  }

  const steps: Step[] = [];
  const done = new Set<string>();
  const deferredOf = new Map<string, Set<string>>(models.map((m) => [m.name, new Set<string>()]));
  const open = () => models.filter((m) => !done.has(m.name));
  const unmet = (name: string) => pending.get(name)!.filter((e) => !done.has(e.to));
  while (done.size < models.length) {
    // the first type in declaration order whose references are all written
    let next = open().find((m) => unmet(m.name).length === 0);
    if (!next) {
      // a cycle: the type whose unmet references can all wait for the second pass, fewest first
      const candidates = open()
        .filter((m) => inCycle(m.name, unmet))
        .map((m) => ({ m, edges: unmet(m.name) }))
        .filter((c) => c.edges.every((e) => e.deferrable && e.field))
        .sort((a, b) => a.edges.length - b.edges.length);
      const pick = candidates[0];
      if (!pick)
        throw new Error(
          `import plan: no order for ${open()
            .map((m) => m.name)
            .join(', ')}`,
        );
      for (const e of pick.edges) deferredOf.get(pick.m.name)!.add(e.field!);
      next = pick.m;
    }
    done.add(next.name);
    const selfRefs = Object.entries(next.fields)
      .filter(([, f]) => f.kind === 'fk' && f.to === next!.name && !f.readOnly)
      .map(([k]) => k);
    steps.push({ model: next, deferred: deferredOf.get(next.name)!, selfRefs });
  }
  return { steps, skipped };
}
