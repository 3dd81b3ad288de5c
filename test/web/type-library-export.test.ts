/**
 * The device and module type lists' "All data" export (`?export`) is device-type library YAML
 * with the component templates, which the YAML import takes again; and importTypeLibrary, what
 * the import page calls, with its dry run (dcim/type-library/).
 */
import { parse, parseAllDocuments, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importTypeLibrary } from '../../src/apps/dcim/type-library/import-types.js';
import type { AppContext, RequestContext } from '../../src/core/context.js';
import { type Json, make, makeManufacturer, uniq } from '../factories/index.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { postYaml, switchDoc } from '../helpers/type-library.js';
import { signIn } from '../helpers/web-session.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const countOf = async (url: string) => (await t.get(url)).json().count as number;

describe('the list page export (?export) writes the same YAML', () => {
  it('exports device types with their templates; the export imports again as the same type', async () => {
    const mfr = await makeManufacturer(t);
    const role = await make(t, '/api/dcim/inventory-item-roles/', { name: uniq('role'), slug: uniq('role') });
    const doc = switchDoc(mfr.name, {
      subdevice_role: 'parent',
      comments: 'two PSUs',
      'module-bays': [{ name: 'Slot 1', position: '1' }],
      'device-bays': [{ name: 'Blade 1', label: 'B1' }],
      'inventory-items': [
        { name: 'z-chassis', role: role.name },
        {
          name: 'a-fan',
          parent: 'z-chassis',
          component_type: 'dcim.interfacetemplate',
          component_name: 'GigabitEthernet1/0/2',
        },
      ],
    });
    doc.interfaces[1].bridge = 'GigabitEthernet1/0/1';
    const made = await postYaml(t, '/api/dcim/device-types/', stringify(doc));
    expect(made.statusCode, made.body).toBe(201);
    const other = await postYaml(t, '/api/dcim/device-types/', stringify(switchDoc(mfr.name, { interfaces: [] })));
    const admin = await signIn(t, t.username, t.password);
    const res = await admin.request('GET', `/dcim/device-types/?manufacturer_id=${mfr.id}&sort=model&export`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/yaml; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="netbox_device_types.yaml"');
    const docs = parseAllDocuments(res.body).map((d) => d.toJS());
    expect(docs.map((d) => d.model).sort()).toEqual([doc.model, other.json().model].sort());
    const exported = docs.find((d) => d.model === doc.model);
    expect(exported).toMatchObject({
      manufacturer: mfr.name,
      slug: doc.slug,
      airflow: 'front-to-rear',
      subdevice_role: 'parent',
      weight_unit: 'kg',
      comments: 'two PSUs',
    });
    expect(exported.interfaces).toHaveLength(48);
    expect(exported.interfaces[0]).toEqual({ name: 'GigabitEthernet1/0/1', type: '1000base-t', poe_mode: 'pse' });
    expect(exported.interfaces[1].bridge).toBe('GigabitEthernet1/0/1');
    expect(exported['power-outlets']).toEqual([
      { name: 'out1', type: 'iec-60320-c13', power_port: 'PS-B', feed_leg: 'A' },
    ]);
    expect(exported['front-ports'][1]).toEqual({
      name: 'front2',
      label: 'F2',
      type: '8p8c',
      rear_port: 'rear1',
      rear_port_position: 2,
    });
    expect(exported['inventory-items'].map((i: Json) => i.name)).toEqual(['z-chassis', 'a-fan']);
    expect(exported['inventory-items'][1]).toMatchObject({
      parent: 'z-chassis',
      component_type: 'dcim.interfacetemplate',
      component_name: 'GigabitEthernet1/0/2',
    });
    // the same document under another model imports as the same type
    const again = await postYaml(
      t,
      '/api/dcim/device-types/',
      stringify({ ...exported, model: `${doc.model}-2`, slug: `${doc.slug}-2` }),
    );
    expect(again.statusCode, again.body).toBe(201);
    const [a, b] = [made.json(), again.json()];
    for (const count of Object.keys(a).filter((k) => k.endsWith('_template_count')))
      expect(b[count], count).toBe(a[count]);
    expect(b.interface_template_count).toBe(48);
    const reexported = await admin.request('GET', `/dcim/device-types/?id=${b.id}&export`);
    expect({ ...parse(reexported.body), model: doc.model, slug: doc.slug }).toEqual(exported);
  });

  it('exports module types with their ports', async () => {
    const mfr = await makeManufacturer(t);
    const doc = {
      manufacturer: mfr.name,
      model: uniq('LC'),
      part_number: 'LC-8',
      interfaces: [{ name: 'Te{module}/1', type: '10gbase-x-sfpp', mgmt_only: true }],
    };
    expect((await postYaml(t, '/api/dcim/module-types/', stringify(doc))).statusCode).toBe(201);
    const admin = await signIn(t, t.username, t.password);
    const res = await admin.request('GET', `/dcim/module-types/?model=${doc.model}&export`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="netbox_module_types.yaml"');
    expect(parse(res.body)).toEqual(doc);
  });
});

describe('importTypeLibrary (what the import page calls)', () => {
  /** a superuser's request context, as an import page's request has one */
  function superuserRc(): RequestContext {
    const app = (t.app as unknown as { inventory: AppContext }).inventory;
    return {
      app,
      q: app.db.kysely,
      user: { id: 1, username: t.username, is_superuser: true, is_active: true, is_staff: true },
      token: null,
      viaSession: true,
      requestId: crypto.randomUUID(),
      baseUrl: 'http://localhost',
      dialect: '3.4',
      permissions: null,
      clientIp: '127.0.0.1',
      dataVersion: null,
    };
  }

  it('a dry run renders the types and writes nothing; errors come back keyed, nothing written', async () => {
    const mfr = await makeManufacturer(t);
    const rc = superuserRc();
    const model = rc.app.registry.get('dcim.devicetype');
    const doc = switchDoc(mfr.name);
    const dry = await importTypeLibrary(rc, model, [doc], { dryRun: true });
    expect(dry.errors).toEqual({});
    expect(dry.rows).toHaveLength(1);
    expect(dry.rows[0]).toMatchObject({ model: doc.model, interface_template_count: 48 });
    expect(await countOf(`/api/dcim/device-types/?model=${doc.model}&limit=1`)).toBe(0);
    const bad = await importTypeLibrary(rc, model, [doc, { ...doc, manufacturer: uniq('none') }], { dryRun: false });
    expect(bad.rows).toEqual([]);
    expect(Object.keys(bad.errors)).toEqual(['[1].manufacturer']);
    expect(await countOf(`/api/dcim/device-types/?model=${doc.model}&limit=1`)).toBe(0);
    const real = await importTypeLibrary(rc, model, [doc], { dryRun: false });
    expect(real.rows[0]!.id).toBeGreaterThan(0);
    expect(await countOf(`/api/dcim/device-types/?model=${doc.model}&limit=1`)).toBe(1);
  });
});
