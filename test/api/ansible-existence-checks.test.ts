/**
 * The queries the netbox.netbox Ansible collection sends to find an object before it creates or
 * updates one (plugins/module_utils/netbox_utils.py, _build_query_params: the names of
 * ALLOWED_QUERY_PARAMS, `<name>_id` for those in QUERY_PARAMS_IDS, the bare name with an id for the
 * others), answered as NetBox answers them: a foreign key's `<fk>=` name NetBox does not declare is
 * ignored, never read as a name and refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import {
  type Json,
  ids,
  make,
  makeDevice,
  makeDeviceType,
  makeInterface,
  makePowerFeed,
  makeSite,
  uniq,
} from '../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

async function find(url: string): Promise<number[]> {
  const res = await t.get(url);
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return ids(res.json());
}

describe('netbox_front_port: front-ports/?device_id=&name=&rear_port=<id>', () => {
  it('finds the port by device and name, also once the playbook names another rear port, and can then move it', async () => {
    const device = await makeDevice(t);
    const other = await makeDevice(t);
    // ports named by number, as patch panels name them: `rear_port=<id>` must not be read as a name
    const rp1 = await make(t, '/api/dcim/rear-ports/', { device: device.id, name: '1', type: 'lc', positions: 2 });
    const rp2 = await make(t, '/api/dcim/rear-ports/', { device: device.id, name: '2', type: 'lc' });
    const fp = await make(t, '/api/dcim/front-ports/', { device: device.id, name: '1', type: 'lc', rear_port: rp1.id });
    const otherRp = await make(t, '/api/dcim/rear-ports/', { device: other.id, name: '1', type: 'lc' });
    await make(t, '/api/dcim/front-ports/', { device: other.id, name: '1', type: 'lc', rear_port: otherRp.id });

    expect(await find(`/api/dcim/front-ports/?device_id=${device.id}&name=1&rear_port=${rp1.id}`)).toEqual([fp.id]);
    // the playbook now says rear port 2: NetBox still finds the port, and the module updates it
    expect(await find(`/api/dcim/front-ports/?device_id=${device.id}&name=1&rear_port=${rp2.id}`)).toEqual([fp.id]);
    const moved = await t.patch(`/api/dcim/front-ports/${fp.id}/`, { rear_port: rp2.id, rear_port_position: 1 });
    expect(moved.statusCode, moved.body).toBe(200);
    // the rear port given by name: the collection looks it up on the same device
    expect(await find(`/api/dcim/rear-ports/?device_id=${device.id}&name=2`)).toEqual([rp2.id]);
    // a value that names nothing is not a 400 either: the name is not a filter
    expect(await find(`/api/dcim/front-ports/?device_id=${device.id}&name=1&rear_port=987654`)).toEqual([fp.id]);
  });
});

describe('port templates: the rear or power port template of a front or outlet template', () => {
  it('rear-port-templates/?name=&device_type=<id>&devicetype_id=<id> finds the one of that device type', async () => {
    const [dt, otherDt] = [await makeDeviceType(t), await makeDeviceType(t)];
    const rpt = await make(t, '/api/dcim/rear-port-templates/', { device_type: dt.id, name: 'RP', type: 'lc' });
    await make(t, '/api/dcim/rear-port-templates/', { device_type: otherDt.id, name: 'RP', type: 'lc' });
    expect(await find(`/api/dcim/rear-port-templates/?name=RP&device_type=${dt.id}&devicetype_id=${dt.id}`)).toEqual([
      rpt.id,
    ]);
    const fpt = await make(t, '/api/dcim/front-port-templates/', {
      device_type: dt.id,
      name: 'FP',
      type: 'lc',
      rear_port: rpt.id,
    });
    // the front port template's own check: `rear_port` bare, `device_type` as devicetype_id
    expect(await find(`/api/dcim/front-port-templates/?name=FP&devicetype_id=${dt.id}&rear_port=${rpt.id}`)).toEqual([
      fpt.id,
    ]);

    const ppt = await make(t, '/api/dcim/power-port-templates/', { device_type: dt.id, name: 'PSU1' });
    await make(t, '/api/dcim/power-port-templates/', { device_type: otherDt.id, name: 'PSU1' });
    expect(await find(`/api/dcim/power-port-templates/?name=PSU1&device_type=${dt.id}&devicetype_id=${dt.id}`)).toEqual(
      [ppt.id],
    );
  });
});

describe('netbox_power_feed: power-feeds/?name=&power_panel=<id>', () => {
  it('finds the feed by name', async () => {
    const feed = await makePowerFeed(t);
    const panel = feed.power_panel.id;
    expect(await find(`/api/dcim/power-feeds/?name=${feed.name}&power_panel=${panel}`)).toEqual([feed.id]);
    expect(await find(`/api/dcim/power-feeds/?name=${feed.name}&power_panel_id=${panel}`)).toEqual([feed.id]);
    expect(await find(`/api/dcim/power-feeds/?name=${feed.name}&rack=987654`)).toEqual([feed.id]);
  });
});

describe('netbox_wireless_link: wireless-links/?interface_a=<id>&interface_b=<id>', () => {
  it('answers what NetBox answers: the names are not filters, the list is not narrowed by them', async () => {
    const radio = { type: 'ieee802.11ac' };
    const a = await makeInterface(t, await makeDevice(t), radio);
    const b = await makeInterface(t, await makeDevice(t), radio);
    const link = await make(t, '/api/wireless/wireless-links/', { interface_a: a.id, interface_b: b.id, ssid: 'ptp' });
    const all = await find('/api/wireless/wireless-links/');
    expect(all).toContain(link.id);
    expect(await find(`/api/wireless/wireless-links/?interface_a=${a.id}&interface_b=${b.id}`)).toEqual(all);
    expect(await find(`/api/wireless/wireless-links/?interface_a_id=${a.id}&interface_b_id=${b.id}`)).toEqual([
      link.id,
    ]);
  });
});

describe('netbox_device_interface: the LAG of an interface', () => {
  it('interfaces/?name=&form_factor=lag&device_id= finds the LAG; interfaces/?lag=<id> is not a filter', async () => {
    const device = await makeDevice(t);
    const lag = await makeInterface(t, device, { name: 'ae0', type: 'lag' });
    const member = await makeInterface(t, device, { lag: lag.id });
    expect(await find(`/api/dcim/interfaces/?name=ae0&form_factor=lag&device_id=${device.id}`)).toEqual([lag.id]);
    expect(await find(`/api/dcim/interfaces/?device_id=${device.id}&lag_id=${lag.id}`)).toEqual([member.id]);
    expect(await find(`/api/dcim/interfaces/?device_id=${device.id}&lag=${lag.id}&ordering=id`)).toEqual(
      [lag.id, member.id].sort((x, y) => x - y),
    );
  });
});

describe('netbox_contact_assignment: contact-assignments/?object_type=&object_id=&contact=<id>', () => {
  it('finds the assignment: `contact` is not a filter (contact_id is)', async () => {
    const site = await makeSite(t);
    const contact = await make(t, '/api/tenancy/contacts/', { name: uniq('contact') });
    const role = await make(t, '/api/tenancy/contact-roles/', { name: uniq('role'), slug: uniq('role') });
    const assignment: Json = await make(t, '/api/tenancy/contact-assignments/', {
      content_type: 'dcim.site',
      object_id: site.id,
      contact: contact.id,
      role: role.id,
    });
    const q = `object_type=dcim.site&object_id=${site.id}&contact=${contact.id}`;
    expect(await find(`/api/tenancy/contact-assignments/?${q}`)).toEqual([assignment.id]);
    expect(await find(`/api/tenancy/contact-assignments/?object_id=${site.id}&contact_id=${contact.id}`)).toEqual([
      assignment.id,
    ]);
  });
});

describe('netbox_cable: cables/?termination_a_type=&termination_a_id=&termination_b_type=&termination_b_id=', () => {
  it('finds the cable between the two interfaces', async () => {
    const a = await makeInterface(t, await makeDevice(t));
    const b = await makeInterface(t, await makeDevice(t));
    const cable = await make(t, '/api/dcim/cables/', {
      a_terminations: [{ object_type: 'dcim.interface', object_id: a.id }],
      b_terminations: [{ object_type: 'dcim.interface', object_id: b.id }],
    });
    const q = `termination_a_type=dcim.interface&termination_a_id=${a.id}&termination_b_type=dcim.interface&termination_b_id=${b.id}`;
    expect(await find(`/api/dcim/cables/?${q}`)).toEqual([cable.id]);
  });
});

describe('netbox_device: the rack, location, cluster and virtual chassis of a device are `_id` filters only', () => {
  it('ignores devices/?rack=<id> as NetBox does and filters devices/?rack_id=<id>', async () => {
    const site = await makeSite(t);
    const rack = await make(t, '/api/dcim/racks/', { name: uniq('rack'), site: site.id });
    const inRack = await makeDevice(t, { site: site.id, rack: rack.id });
    const beside = await makeDevice(t, { site: site.id });
    expect(await find(`/api/dcim/devices/?site_id=${site.id}&rack_id=${rack.id}`)).toEqual([inRack.id]);
    const both = [inRack.id, beside.id].sort((x, y) => x - y);
    for (const name of ['rack', 'rack__n', 'location', 'cluster', 'virtual_chassis', 'primary_ip4', 'device_role'])
      expect(await find(`/api/dcim/devices/?site_id=${site.id}&${name}=${rack.id}&ordering=id`), name).toEqual(both);
  });
});
