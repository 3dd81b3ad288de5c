/**
 * Installing a module (NetBox 3.4 Module.save() with ModuleCommonForm's checks): the module type's
 * modular templates become components of the module's device, with `module` set and `{module}`
 * replaced by the bay's position. `replicate_components` (default true) creates them;
 * `adopt_components` takes over the device's same-named components that are on no module instead
 * of failing on the name clash. NetBox offers both on its forms and CSV import only; here they are
 * write-only inputs of POST modules/.
 */
import { sql } from 'kysely';
import type { RequestContext } from '../../../core/context.js';
import { COMPONENT_KINDS, MODULE_TOKEN } from './component-kinds.js';
import { instantiateComponents, loadTemplates, type Owner, resolveName } from './instantiate.js';
import type { Row } from '../../../core/model/types.js';

const modularKinds = (rc: RequestContext) =>
  COMPONENT_KINDS.filter((k) => k.modular && rc.app.registry.find(k.template) && rc.app.registry.find(k.component));

async function bayPosition(rc: RequestContext, bayId: unknown): Promise<string> {
  const res = await sql<{ position: string }>`select position from dcim_modulebay where id = ${Number(bayId)}`.execute(
    rc.q,
  );
  return res.rows[0]?.position ?? '';
}

/** NetBox 3.4 ModuleCommonForm.clean(): what installing this new module would clash with */
export async function installErrors(rc: RequestContext, data: Row): Promise<string[]> {
  if (!data.replicate_components) return [];
  const kinds = modularKinds(rc);
  const templates = await loadTemplates(rc, kinds, 'module_type_id', [Number(data.module_type_id)]);
  const position = await bayPosition(rc, data.module_bay_id);
  const owner = { moduleId: 0, position };
  for (const kind of kinds) {
    const list = templates.get(kind.table)?.get(Number(data.module_type_id)) ?? [];
    if (!list.length) continue;
    const installed = await sql<{
      name: string;
      module_id: number | null;
    }>`select name, module_id from ${sql.table(rc.app.registry.get(kind.component).table)}
      where device_id = ${Number(data.device_id)}`.execute(rc.q);
    const byName = new Map(installed.rows.map((r) => [r.name, r]));
    for (const t of list) {
      if (String(t.name).includes(MODULE_TOKEN) && !position) {
        return ['Cannot install module with placeholder values in a module bay with no position defined'];
      }
      const name = resolveName(t.name, owner);
      const existing = byName.get(name);
      if (data.adopt_components && existing?.module_id != null)
        return [`Cannot adopt ${kind.className} '${name}' as it already belongs to a module`];
      if (!data.adopt_components && existing) return [`${kind.className} - ${name} already exists`];
    }
  }
  return [];
}

/** NetBox 3.4 Module.save() on create, for every module of the request */
export async function installModuleComponents({
  rc,
  created,
}: {
  rc: RequestContext;
  created: Array<{ data: Row; row: Row }>;
}): Promise<void> {
  // a copy (import-netbox/) brings the source's components, each naming its module
  if (rc.importing) return;
  const bays = await sql<{ id: number; position: string }>`select id, position from dcim_modulebay
    where id = any(${created.map((c) => Number(c.row.module_bay_id))}::bigint[])`.execute(rc.q);
  const position = new Map(bays.rows.map((b) => [Number(b.id), b.position]));
  const owners: Owner[] = created.map(({ data, row }) => ({
    typeId: Number(row.module_type_id),
    deviceId: Number(row.device_id),
    moduleId: Number(row.id),
    position: position.get(Number(row.module_bay_id)) ?? '',
    replicate: data.replicate_components !== false,
    adopt: data.adopt_components === true,
  }));
  await instantiateComponents(
    rc,
    owners.filter((o) => o.replicate || o.adopt),
    'module_type_id',
  );
}
