/**
 * A module bay's `installed_module` (NetBox 3.4 ModuleBaySerializer with
 * ModuleBayNestedModuleSerializer): `{id, url, display, serial}` of the module in the bay, or
 * null; one statement per page.
 */
import { sql } from 'kysely';
import type { RequestContext } from '../../core/context.js';
import type { FieldDef, Row } from '../../core/model/types.js';
import { detailUrl } from '../../core/urls.js';

export const installedModuleField = (): FieldDef => ({
  kind: 'computed',
  readOnly: true,
  shape: {
    type: 'object',
    nullable: true,
    properties: {
      id: { type: 'integer' },
      url: { type: 'string', format: 'uri' },
      display: { type: 'string' },
      serial: { type: 'string' },
    },
    required: ['id', 'url', 'display', 'serial'],
    additionalProperties: false,
  },
});

export async function representInstalledModules(rc: RequestContext, rows: Row[], out: Row[]): Promise<void> {
  const ids = rows.map((r) => Number(r.id));
  if (!ids.length) return;
  const res =
    await sql<Row>`select m.id, m.serial, m.module_bay_id, t.model from dcim_module m join dcim_moduletype t on t.id = m.module_type_id
    where m.module_bay_id = any(${ids}::bigint[])`.execute(rc.q);
  const byBay = new Map(res.rows.map((m) => [Number(m.module_bay_id), m]));
  const model = rc.app.registry.get('dcim.module');
  rows.forEach((r, i) => {
    const m = byBay.get(Number(r.id));
    out[i]!.installed_module = m
      ? {
          id: Number(m.id),
          url: detailUrl(rc.baseUrl, model, m.id),
          display: `${String(r.name)}: ${String(m.model)} (${String(m.id)})`,
          serial: m.serial,
        }
      : null;
  });
}
