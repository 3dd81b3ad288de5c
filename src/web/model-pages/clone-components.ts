/**
 * Clone with components (NetBox #4065, #16711: its clones drop them). Cloning a device (or a virtual
 * machine) can also copy the components of the original that the new one does not get from its
 * type: in the same transaction as the new object, through the write path, after its type's
 * templates made theirs (a name the new object already has is left alone). References between
 * components (an outlet's power port, a front port's rear port, an interface's LAG, parent and
 * bridge) point at the new object's component of the same name. Cables, MAC addresses, WWNs and
 * what sits in modules are not copied: they belong to the original's hardware.
 */
import type { RequestContext } from '../../core/context.js';
import { listInChunks } from '../../core/crud/list-chunks.js';
import { countObjects } from '../../core/crud/read.js';
import { createObjects, updateObjects } from '../../core/crud/write-service.js';
import { ApiError, Errors } from '../../core/errors.js';
import type { Registry } from '../../core/model/registry.js';
import type { FieldDef, ModelDef, Row } from '../../core/model/types.js';
import { errorLines } from '../error-lines.js';
import { uiOf } from '../model-ui.js';

interface Kind {
  model: ModelDef;
  /** its fk to the owner */
  key: string;
}

const NOT_COPIED = new Set(['module', 'cable', 'mark_connected', 'wwn']);

/**
 * The owner's components: models with a cascading fk to it whose names are unique per owner, each
 * after the kinds it points at (rear ports before front ports, power ports before outlets).
 */
function cloneKinds(registry: Registry, owner: ModelDef): Kind[] {
  const kinds: Kind[] = [];
  for (const m of registry.all()) {
    const key = Object.entries(m.fields).find(
      ([, f]) => f.kind === 'fk' && f.to === owner.name && f.onDelete === 'cascade',
    )?.[0];
    if (
      key &&
      m.uniqueTogether.some((u) => u.fields.length === 2 && u.fields.includes(key) && u.fields.includes('name'))
    )
      kinds.push({ model: m, key });
  }
  const names = new Set(kinds.map((k) => k.model.name));
  const pointsAt = (k: Kind) =>
    Object.values(k.model.fields)
      .filter((f) => (f.kind === 'fk' || f.kind === 'm2m') && f.to !== k.model.name && names.has(f.to!))
      .map((f) => f.to!);
  const ordered: Kind[] = [];
  const placed = new Set<string>();
  while (ordered.length < kinds.length) {
    const next = kinds.filter((k) => !placed.has(k.model.name) && pointsAt(k).every((t) => placed.has(t)));
    // a cycle between kinds (none today) is broken in declaration order rather than looping
    for (const k of next.length ? next : kinds.filter((k) => !placed.has(k.model.name)).slice(0, 1)) {
      ordered.push(k);
      placed.add(k.model.name);
    }
  }
  return ordered;
}

/** how many components of `sourceId` a clone may copy (before its type's templates are counted) */
export async function componentCount(rc: RequestContext, owner: ModelDef, sourceId: number): Promise<number> {
  let n = 0;
  for (const { model, key } of cloneKinds(rc.app.registry, owner))
    n += (await countObjects(rc, model, new Map([[`${key}_id`, [String(sourceId)]]]))) ?? 0;
  return n;
}

async function readAll(rc: RequestContext, model: ModelDef, key: string, ownerId: number): Promise<Row[]> {
  const list = await listInChunks(rc, model, new Map([[`${key}_id`, [String(ownerId)]]]));
  const out: Row[] = [];
  for await (const chunk of list.chunks()) out.push(...chunk);
  return out;
}

const nameOf = (v: unknown) => (v && typeof v === 'object' ? String((v as Row).name ?? '') : '');

/** a represented value as the write path takes it; references to the owner's components by name */
function writable(f: FieldDef, v: unknown, scoped: Map<string, number> | undefined): unknown {
  if (v === null || v === undefined) return v;
  if (f.kind === 'fk') return scoped ? (scoped.get(nameOf(v)) ?? null) : (v as Row).id;
  if (f.kind === 'm2m' && Array.isArray(v))
    return v.flatMap((x) =>
      scoped ? (scoped.get(nameOf(x)) ?? []) : [x && typeof x === 'object' ? (x as Row).id : x],
    );
  if (f.kind === 'choice' && typeof v === 'object' && 'value' in (v as Row)) return (v as Row).value;
  return v;
}

/** Copies the components of `sourceId` the new owner `newId` lacks, in the caller's transaction; how many. */
export async function copyComponents(
  trx: RequestContext,
  owner: ModelDef,
  sourceId: number,
  newId: number,
): Promise<number> {
  const registry = trx.app.registry;
  const ids = new Map<string, Map<string, number>>();
  let copied = 0;
  for (const { model, key } of cloneKinds(registry, owner)) {
    const have = new Map((await readAll(trx, model, key, newId)).map((r) => [String(r.name), Number(r.id)]));
    ids.set(model.name, have);
    const source = (await readAll(trx, model, key, sourceId)).filter((r) => !r.module && !have.has(String(r.name)));
    if (!source.length) continue;
    // a unique value (an interface's primary MAC object) stays the original's, as NetBox's clone leaves it
    const fields = uiOf(registry, model).formFields.filter((k) => {
      const f = model.fields[k]!;
      return k !== key && !NOT_COPIED.has(k) && f.kind !== 'mac' && f.kind !== 'password' && !f.unique;
    });
    const selfRefs = fields.filter((k) => model.fields[k]!.to === model.name);
    const bodies = source.map((r) => {
      const body: Row = { [key]: newId };
      for (const k of fields) {
        if (selfRefs.includes(k)) continue;
        const f = model.fields[k]!;
        body[k] = writable(f, r[k], f.to ? ids.get(f.to) : undefined);
      }
      if (model.tags) body.tags = ((r.tags ?? []) as Row[]).map((t) => t.id);
      if (model.customFields && r.custom_fields) body.custom_fields = r.custom_fields;
      return body;
    });
    const rows = await write(model, source, () => createObjects(trx, model, bodies, true));
    rows.forEach((row, i) => have.set(String(source[i]!.name), Number(row.id)));
    copied += rows.length;
    // references to components of the same kind, now that all of them exist
    const referring = rows.flatMap((row, i) =>
      selfRefs.some((k) => source[i]![k]) ? [{ row, from: source[i]! }] : [],
    );
    const updates = referring.map(({ row, from }) => {
      const u: Row = { id: Number(row.id) };
      for (const k of selfRefs) if (from[k]) u[k] = writable(model.fields[k]!, from[k], have);
      return u;
    });
    if (updates.length)
      await write(
        model,
        referring.map((r) => r.from),
        () => updateObjects(trx, model, updates, 'update', true),
      );
  }
  return copied;
}

/** a copy the write path refuses, told as the component that failed */
async function write<T>(model: ModelDef, source: Row[], run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (!(err instanceof ApiError) || err.statusCode !== 400) throw err;
    const list = Array.isArray(err.body) ? (err.body as unknown[]) : null;
    const i = list
      ? list.findIndex((e) => e && typeof e === 'object' && Object.keys(e).length > 0)
      : (err.itemIndex ?? -1);
    const which = i >= 0 ? `${model.verboseName} ${String(source[i]?.name)}` : model.verboseNamePlural;
    throw Errors.badRequest(
      `Copying the ${which} failed: ${errorLines(list && i >= 0 ? list[i] : err.body).join(' ')}`,
    );
  }
}
