/**
 * The nested lists of a model's GraphQL type: relations seen from the other side (a site's
 * devices, an interface's IP addresses through their generic assignment, a VLAN's interfaces
 * through tagged_vlans), many-to-many members, and tags. Each is a ChildLink (loads.ts) over the
 * declarations; none is written by hand per model.
 *
 * Names: the pointing model's REST path (`devices`, `ip_addresses`); where one model points here
 * through several fields, each is named `<path>_by_<field>` (`interfaces_by_lag`,
 * `devices_by_primary_ip4`); a second model with the same path is named by its model name
 * (`vminterfaces`, as NetBox's related names call VM interfaces).
 *
 * 4.4 also offers a list under NetBox 4.4's name for it, where that differs: the field's declared
 * `relatedName` (an interface's `bridge_interfaces`, a device's `consoleports`), else a tree's
 * `children` (Django's related_name of every NetBox tree's parent).
 *
 * Per dialect: a list is there when the dialect serves the listed model and shows the field it
 * goes through (4.4 lists a site's prefixes through their `scope`, 3.4 through their `site`).
 * 4.4 names its lists from its own relations, so a site's are `prefixes` and `clusters`, as in
 * NetBox 4.4; 3.4's names count the relations of both dialects (`prefixes_by_site`), the names its
 * schema has always had, so no 3.4 query changes.
 */
import { sql } from 'kysely';
import type { Registry } from '../model/registry.js';
import { type Dialect, hasIn, servedIn, shownIn, wireName } from '../model/dialect.js';
import type { ModelDef } from '../model/types.js';
import type { ChildLink } from './loads.js';
import { pluralName } from './names.js';

export interface NestedList {
  name: string;
  /** the model listed */
  model: ModelDef;
  link: ChildLink;
  description: string;
  /** the field it goes through, on the listed model (a relation) or on the owner (many-to-many) */
  via: { model: ModelDef; key: string } | null;
}

function throughLink(table: string, ownerColumn: string, memberColumn: string): ChildLink {
  return {
    owner: sql.ref(`j.${ownerColumn}`),
    join: sql`join ${sql.table(table)} as j on ${sql.ref(`j.${memberColumn}`)} = t.id`,
  };
}

/** the path-derived plural of a model, told apart from an earlier model with the same path */
function pathName(registry: Registry, model: ModelDef): string {
  const first = registry.all().find((m) => m.path === model.path);
  return first === model ? pluralName(model) : `${model.model}s`;
}

/** whether a dialect has a nested list: it serves the listed model and shows the field it goes through */
function isShownIn(list: NestedList, dialect: Dialect): boolean {
  if (!servedIn(list.model, dialect)) return false;
  const via = list.via;
  return !via || (servedIn(via.model, dialect) && shownIn(via.model, via.key, via.model.fields[via.key], dialect));
}

/** Relations pointing at `target` from other models (and from itself), as nested lists of `target`. */
function reverseLists(registry: Registry, target: ModelDef, dialect: Dialect): NestedList[] {
  const found: Array<{ source: ModelDef; key: string; link: ChildLink }> = [];
  for (const [source, key] of registry.referencesTo(target.name)) {
    const f = source.fields[key]!;
    if (f.kind === 'fk') found.push({ source, key, link: { owner: sql.ref(`t.${key}_id`) } });
    else found.push({ source, key, link: throughLink(f.through!.table, f.through!.to, f.through!.from) });
  }
  for (const [source, key] of registry.genericReferencesTo(target.name)) {
    const { type, id } = source.fields[key]!.generic!;
    found.push({
      source,
      key,
      link: { owner: sql.ref(`t.${id}`), where: sql`${sql.ref(`t.${type}`)} = ${sql.lit(target.name)}` },
    });
  }
  const lists = found.map(({ source, key, link }) => ({
    name: '',
    model: source,
    link,
    description: `${source.verboseNamePlural} whose ${wireName(source, key, dialect)} is this ${target.verboseName}.`,
    via: { model: source, key },
  }));
  const counted = dialect === '3.4' ? lists : lists.filter((l) => isShownIn(l, dialect));
  const perSource = new Map<ModelDef, number>();
  for (const { model } of counted) perSource.set(model, (perSource.get(model) ?? 0) + 1);
  for (const list of counted) {
    const base = pathName(registry, list.model);
    list.name = perSource.get(list.model)! > 1 ? `${base}_by_${list.via.key}` : base;
  }
  return counted;
}

/** NetBox 4.4's name of a reverse relation (its related_name), when it is known */
function netboxName(target: ModelDef, list: NestedList): string | undefined {
  const via = list.via!;
  const declared = via.model.fields[via.key]?.relatedName;
  if (declared) return declared.replace('%(class)s', via.model.model);
  return via.model === target && target.treeParent === via.key ? 'children' : undefined;
}

/**
 * Every nested list of a model's type in a dialect, whose names do not clash with `taken` (its
 * other fields).
 */
export function nestedLists(registry: Registry, model: ModelDef, taken: Set<string>, dialect: Dialect): NestedList[] {
  const out: NestedList[] = [];
  for (const [key, f] of Object.entries(model.fields)) {
    if (f.kind !== 'm2m' || f.writeOnly) continue;
    out.push({
      name: wireName(model, key, dialect),
      model: registry.get(f.to!),
      link: throughLink(f.through!.table, f.through!.from, f.through!.to),
      description: f.help ?? f.label ?? key,
      via: { model, key },
    });
  }
  const tag = registry.find('extras.tag');
  if (hasIn(model.tags, dialect) && tag && !('tags' in model.fields)) {
    out.push({
      name: 'tags',
      model: tag,
      link: {
        owner: sql.ref('j.object_id'),
        join: sql`join extras_taggeditem as j on j.tag_id = t.id`,
        where: sql`j.content_type = ${sql.lit(model.name)}`,
      },
      description: 'Tags of this object.',
      via: null,
    });
  }
  const lists = reverseLists(registry, model, dialect);
  for (const list of lists) {
    let name = list.name;
    while (taken.has(name) || out.some((o) => o.name === name)) name = `${name}_set`;
    out.push({ ...list, name });
  }
  if (dialect === '4.4')
    for (const list of lists) {
      const name = netboxName(model, list);
      if (name && !taken.has(name) && !out.some((o) => o.name === name)) out.push({ ...list, name });
    }
  const shown = out.filter((o) => isShownIn(o, dialect));
  for (const o of shown) taken.add(o.name);
  return shown;
}
