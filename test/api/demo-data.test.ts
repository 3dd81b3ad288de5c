import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemoData } from '../../src/demo-data.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
const lines: string[] = [];
beforeAll(async () => {
  t = await makeTestApp();
  await loadDemoData(t.app, t.db, (line) => lines.push(line));
});
afterAll(async () => t.close());

describe('inventory demo-data', () => {
  it('reports progress per step', () => {
    expect(lines[0]).toBe('Loading demo data:');
    expect(lines.some((l) => l.includes('devices (components from their types)') && l.includes('16 objects'))).toBe(
      true,
    );
    expect(lines.at(-1)).toBe('Done.');
  });

  it('loads a connected network visible through the API', async () => {
    expect((await t.get('/api/dcim/sites/')).json().count).toBe(4);
    expect((await t.get('/api/dcim/devices/?limit=1')).json().count).toBe(36);
    expect((await t.get('/api/dcim/cables/?limit=1')).json().count).toBe(76);
    expect((await t.get('/api/ipam/prefixes/?limit=1')).json().count).toBe(12);
    const ips = (await t.get('/api/ipam/ip-addresses/?limit=1')).json();
    expect(ips.count).toBe(19);
    expect(ips.results[0].assigned_object.device.name).toMatch(/-(core1|sw\d)$/);
    expect((await t.get('/api/ipam/vlans/?limit=1')).json().count).toBe(12);
    expect((await t.get('/api/circuits/circuits/?limit=1')).json().count).toBe(4);
    const vms = (await t.get('/api/virtualization/virtual-machines/')).json();
    expect(vms.count).toBe(3);
    expect(vms.results[0]).toMatchObject({
      name: 'fra1-dns1',
      cluster: { name: 'FRA1-vSphere' },
      primary_ip4: { address: '10.0.10.10/24' },
    });
    expect((await t.get('/api/virtualization/interfaces/?limit=1')).json().count).toBe(3);
    const onVms = (await t.get('/api/ipam/ip-addresses/?assigned_to_interface=true&vminterface=eth0')).json();
    expect(onVms.count).toBe(3);
    expect(onVms.results[0].assigned_object.virtual_machine.name).toMatch(/^fra1-/);
    const services = (await t.get('/api/ipam/services/?port=53')).json();
    expect(services.count).toBe(2);
  });

  it('gives devices their components from templates, cables patch panels, consoles and power, and installs line cards', async () => {
    const core = (await t.get('/api/dcim/devices/?name=FRA1-core1')).json().results[0];
    expect(core).toMatchObject({
      interface_count: 14,
      console_port_count: 1,
      power_port_count: 2,
      module_bay_count: 1,
    });
    // the line card's ports are named after the bay's position
    const card = (await t.get(`/api/dcim/interfaces/?device_id=${core.id}&name__isw=xe-1/`)).json();
    expect(card.results.map((i: { name: string }) => i.name)).toEqual(['xe-1/0/0', 'xe-1/0/1', 'xe-1/0/2', 'xe-1/0/3']);
    expect(card.results[0].module).toMatchObject({ module_bay: { name: 'PIC 1' } });
    const con = (await t.get(`/api/dcim/console-ports/?device_id=${core.id}`)).json().results[0];
    expect(con.link_peers[0]).toMatchObject({ name: 'port1', device: { name: 'FRA1-cs1' } });
    const psu = (await t.get(`/api/dcim/power-ports/?device_id=${core.id}&name=PSU1`)).json().results[0];
    expect(psu.link_peers[0]).toMatchObject({ name: 'outlet2', device: { name: 'FRA1-pdu1' } });
    const uplink = (await t.get(`/api/dcim/interfaces/?device_id=${core.id}&name=xe-0/0/1`)).json().results[0];
    expect(uplink.link_peers[0]).toMatchObject({ name: 'LC-1', device: { name: 'FRA1-pp1' } });
    // the uplink's path runs through both patch panels and their trunk to the switch
    expect(uplink.connected_endpoints).toEqual([
      expect.objectContaining({ name: 'xe-0/0/0', device: expect.objectContaining({ name: 'FRA1-sw1' }) }),
    ]);
    expect(uplink.connected_endpoints_reachable).toBe(true);
    const trace = (await t.get(`/api/dcim/interfaces/${uplink.id}/trace/`)).json();
    expect(trace.map((hop: Array<Array<{ name: string }>>) => [hop[0]![0]!.name, hop[2]![0]!.name])).toEqual([
      ['xe-0/0/1', 'LC-1'],
      ['MPO-1', 'MPO-1'],
      ['LC-1', 'xe-0/0/0'],
    ]);
    // power: the PDU's inlet ends at its rack's A feed, the switch's supply at the PDU outlet
    const inlet = (await t.get('/api/dcim/power-ports/?device=FRA1-pdu2')).json().results[0];
    expect(inlet.connected_endpoints[0]).toMatchObject({ name: 'FRA1-R2-A' });
    expect((await t.get('/api/dcim/power-feeds/?limit=1')).json().count).toBe(16);
    const trunk = (await t.get('/api/dcim/cables/?label=FRA1-trunk')).json().results[0];
    expect(trunk.a_terminations[0].object).toMatchObject({ name: 'MPO-1', device: { name: 'FRA1-pp1' } });
  });

  it('removes its temporary loader account', async () => {
    const users = (await t.get('/api/users/users/?username__isw=demo-loader')).json();
    expect(users.count).toBe(0);
  });
});
