/**
 * The physical half of `inventory demo-data` (docs/installation.md): device types whose components come from
 * templates, so every device gets its ports when it is created; per site a patch panel in each
 * rack with a 12-fibre trunk between them (the core-to-switch links run through both), a console
 * server wired to every network device's console, a PDU in each rack feeding the power supplies;
 * and a line card in each core router's module bay.
 */
// biome-ignore lint/suspicious/noExplicitAny: the loader walks answers it just created by field name (demo-data-client.ts Answer)
type Json = Record<string, any>;
// biome-ignore lint/suspicious/noExplicitAny: an object or a list of them, as the body was one or a list
type Post = (path: string, body: Json | Json[]) => Promise<any>;
type Get = (path: string) => Promise<Json[]>;
type Step = <T>(what: string, fn: () => Promise<T>) => Promise<T>;

const range = (n: number, from = 0) => Array.from({ length: n }, (_, i) => i + from);
const end = (type: string, o: Json) => [{ object_type: `dcim.${type}`, object_id: o.id }];
const cable = (aType: string, a: Json, bType: string, b: Json, extra: Json = {}) => ({
  a_terminations: end(aType, a),
  b_terminations: end(bType, b),
  status: 'connected',
  ...extra,
});

export interface DeviceTypes {
  core: Json;
  access: Json;
  patchPanel: Json;
  consoleServer: Json;
  pdu: Json;
  lineCard: Json;
}

/** the device and module types of the demo network, with their component templates */
export async function loadDeviceTypes(post: Post, step: Step): Promise<DeviceTypes> {
  const [juniper, generic, opengear, apc] = await step('manufacturers', () =>
    post(
      'dcim/manufacturers',
      [
        ['Juniper', 'juniper'],
        ['Generic', 'generic'],
        ['Opengear', 'opengear'],
        ['APC', 'apc'],
      ].map(([name, slug]) => ({ name, slug })),
    ),
  );
  const [core, access, patchPanel, consoleServer, pdu] = await step('device types', () =>
    post('dcim/device-types', [
      { manufacturer: juniper.id, model: 'MX204', slug: 'mx204', u_height: 1 },
      { manufacturer: juniper.id, model: 'EX4300-48T', slug: 'ex4300-48t', u_height: 1 },
      { manufacturer: generic.id, model: '12-port LC patch panel', slug: 'lc-patch-12', u_height: 1 },
      { manufacturer: opengear.id, model: 'CM7116-2', slug: 'cm7116-2', u_height: 1 },
      { manufacturer: apc.id, model: 'AP8868', slug: 'ap8868', u_height: 0 },
    ]),
  );
  const lineCard = await step('module type', () =>
    post('dcim/module-types', { manufacturer: juniper.id, model: 'MIC-3D-4XGE-XFP' }),
  );
  await step('component templates', async () => {
    const made: Json[] = [];
    const add = async (path: string, list: Json[]) => {
      const out = await post(`dcim/${path}`, list);
      made.push(...out);
      return out;
    };
    await add('interface-templates', [
      ...range(8).map((n) => ({ device_type: core.id, name: `xe-0/0/${n}`, type: '10gbase-x-sfpp' })),
      { device_type: core.id, name: 'em0', type: '1000base-t', mgmt_only: true },
      { device_type: core.id, name: 'lo0', type: 'virtual' },
      ...range(4).map((n) => ({ device_type: access.id, name: `xe-0/0/${n}`, type: '10gbase-x-sfpp' })),
      ...range(12).map((n) => ({ device_type: access.id, name: `ge-0/1/${n}`, type: '1000base-t' })),
      { device_type: access.id, name: 'lo0', type: 'virtual' },
      { device_type: consoleServer.id, name: 'eth0', type: '1000base-t', mgmt_only: true },
      // the line card's ports take the bay's position: xe-1/0/0 in PIC 1
      ...range(4).map((n) => ({ module_type: lineCard.id, name: `xe-{module}/0/${n}`, type: '10gbase-x-xfp' })),
    ]);
    await add(
      'console-port-templates',
      [core, access].map((t) => ({ device_type: t.id, name: 'con', type: 'rj-45' })),
    );
    await add(
      'console-server-port-templates',
      range(16, 1).map((n) => ({ device_type: consoleServer.id, name: `port${n}`, type: 'rj-45' })),
    );
    const [, , , , inlet] = await add('power-port-templates', [
      ...['PSU0', 'PSU1'].map((name) => ({
        device_type: core.id,
        name,
        type: 'iec-60320-c14',
        maximum_draw: 650,
        allocated_draw: 300,
      })),
      { device_type: access.id, name: 'PSU0', type: 'iec-60320-c14', maximum_draw: 550, allocated_draw: 200 },
      { device_type: consoleServer.id, name: 'PSU', type: 'iec-60320-c14', maximum_draw: 30 },
      { device_type: pdu.id, name: 'inlet', type: 'iec-60309-p-n-e-6h' },
    ]);
    await add(
      'power-outlet-templates',
      range(8, 1).map((n) => ({
        device_type: pdu.id,
        name: `outlet${n}`,
        type: 'iec-60320-c13',
        power_port: inlet.id,
        feed_leg: 'A',
      })),
    );
    await add('module-bay-templates', [{ device_type: core.id, name: 'PIC 1', position: '1' }]);
    const [rear] = await add('rear-port-templates', [
      { device_type: patchPanel.id, name: 'MPO-1', type: 'mpo', positions: 12 },
    ]);
    await add(
      'front-port-templates',
      range(12, 1).map((n) => ({
        device_type: patchPanel.id,
        name: `LC-${n}`,
        type: 'lc',
        rear_port: rear.id,
        rear_port_position: n,
      })),
    );
    return made;
  });
  return { core, access, patchPanel, consoleServer, pdu, lineCard };
}

/** a component of a device by name, from the lists read back after the devices were created */
function finder(list: Json[]) {
  const byKey = new Map(list.map((c) => [`${c.device.id}:${c.name}`, c]));
  return (device: Json, name: string): Json => {
    const c = byKey.get(`${device.id}:${name}`);
    if (!c) throw new Error(`demo data: ${String(device.name)} has no ${name}`);
    return c;
  };
}

/**
 * Per site (`devices` holds its core1 and sw1..3, racks its two racks): the patch panels, console
 * server and PDUs, then the cables: core xe-0/0/n -> panel 1 LC-n, trunk panel 1 <-> panel 2,
 * panel 2 LC-n -> swn xe-0/0/0; every console to the console server; every power supply to a
 * PDU outlet. Returns the PDUs, whose inlets the power feeds take.
 */
export async function loadSiteInfrastructure(
  post: Post,
  get: Get,
  step: Step,
  types: DeviceTypes,
  sites: Json[],
  racks: Json[],
  devices: Json[],
  role: Json,
): Promise<Json[]> {
  const infra = await step('patch panels, console servers, PDUs', () =>
    post(
      'dcim/devices',
      sites.flatMap((s, i) => {
        const [r1, r2] = [racks[i * 2]!, racks[i * 2 + 1]!];
        return [
          {
            name: `${s.name}-pp1`,
            site: s.id,
            rack: r1.id,
            position: 40,
            face: 'front',
            device_type: types.patchPanel.id,
            role: role.id,
          },
          {
            name: `${s.name}-pp2`,
            site: s.id,
            rack: r2.id,
            position: 40,
            face: 'front',
            device_type: types.patchPanel.id,
            role: role.id,
          },
          {
            name: `${s.name}-cs1`,
            site: s.id,
            rack: r1.id,
            position: 38,
            face: 'front',
            device_type: types.consoleServer.id,
            role: role.id,
          },
          { name: `${s.name}-pdu1`, site: s.id, rack: r1.id, device_type: types.pdu.id, role: role.id },
          { name: `${s.name}-pdu2`, site: s.id, rack: r2.id, device_type: types.pdu.id, role: role.id },
        ];
      }),
    ),
  );
  const all = [...devices, ...infra];
  const ids = all.map((d) => `device_id=${d.id}`).join('&');
  const [ifaces, fronts, rears, consoles, csPorts, psus, outlets] = await Promise.all(
    [
      'interfaces',
      'front-ports',
      'rear-ports',
      'console-ports',
      'console-server-ports',
      'power-ports',
      'power-outlets',
    ].map((p) => get(`dcim/${p}/?${ids}&limit=0`)),
  );
  const [iface, front, rear, con, csPort, psu, outlet] = [
    finder(ifaces!),
    finder(fronts!),
    finder(rears!),
    finder(consoles!),
    finder(csPorts!),
    finder(psus!),
    finder(outlets!),
  ] as const;
  const named = (name: string) => all.find((d) => d.name === name)!;
  const cables: Json[] = [];
  for (const s of sites) {
    const [core, pp1, pp2, cs, pdu1, pdu2] = ['core1', 'pp1', 'pp2', 'cs1', 'pdu1', 'pdu2'].map((n) =>
      named(`${s.name}-${n}`),
    ) as [Json, Json, Json, Json, Json, Json];
    cables.push(
      cable('rearport', rear(pp1, 'MPO-1'), 'rearport', rear(pp2, 'MPO-1'), { type: 'smf', label: `${s.name}-trunk` }),
    );
    for (const n of [1, 2, 3]) {
      const sw = named(`${s.name}-sw${n}`);
      cables.push(cable('interface', iface(core, `xe-0/0/${n}`), 'frontport', front(pp1, `LC-${n}`), { type: 'smf' }));
      cables.push(cable('frontport', front(pp2, `LC-${n}`), 'interface', iface(sw, 'xe-0/0/0'), { type: 'smf' }));
      cables.push(
        cable('consoleport', con(sw, 'con'), 'consoleserverport', csPort(cs, `port${n + 1}`), { type: 'cat6' }),
      );
      cables.push(cable('powerport', psu(sw, 'PSU0'), 'poweroutlet', outlet(pdu2, `outlet${n}`), { type: 'power' }));
    }
    cables.push(cable('consoleport', con(core, 'con'), 'consoleserverport', csPort(cs, 'port1'), { type: 'cat6' }));
    cables.push(cable('powerport', psu(core, 'PSU0'), 'poweroutlet', outlet(pdu1, 'outlet1'), { type: 'power' }));
    cables.push(cable('powerport', psu(core, 'PSU1'), 'poweroutlet', outlet(pdu1, 'outlet2'), { type: 'power' }));
    cables.push(cable('powerport', psu(cs, 'PSU'), 'poweroutlet', outlet(pdu1, 'outlet3'), { type: 'power' }));
  }
  await step('cables (trunks, patches, console, power)', () => post('dcim/cables', cables));
  const bays = await get(`dcim/module-bays/?${sites.map((s) => `device=${s.name}-core1`).join('&')}&limit=0`);
  await step('line cards in the core routers', () =>
    post(
      'dcim/modules',
      bays.map((b) => ({
        device: b.device.id,
        module_bay: b.id,
        module_type: types.lineCard.id,
        serial: `MIC${b.id}`,
      })),
    ),
  );
  return infra.filter((d: Json) => String(d.name).includes('-pdu'));
}

/** a power panel per site with an A and a B feed per PDU's rack, each PDU's inlet cabled to its A feed */
export async function loadPower(post: Post, get: Get, step: Step, sites: Json[], pdus: Json[]): Promise<void> {
  const panels = await step('power panels', () =>
    post(
      'dcim/power-panels',
      sites.map((s) => ({ site: s.id, name: `${s.name}-MDF-1` })),
    ),
  );
  const feeds = await step('power feeds', () =>
    post(
      'dcim/power-feeds',
      pdus.flatMap((pdu) => {
        const panel = panels.find((p: Json) => p.site.id === pdu.site.id);
        return ['A', 'B'].map((side) => ({
          power_panel: panel.id,
          rack: pdu.rack.id,
          name: `${String(pdu.rack.name)}-${side}`,
          type: side === 'A' ? 'primary' : 'redundant',
          supply: 'ac',
          phase: 'three-phase',
          voltage: 400,
          amperage: 32,
          max_utilization: 80,
        }));
      }),
    ),
  );
  const inlets = await get(`dcim/power-ports/?${pdus.map((d) => `device_id=${d.id}`).join('&')}&limit=0`);
  await step('cables (PDU inlets to feeds)', () =>
    post(
      'dcim/cables',
      inlets.map((inlet) => {
        const pdu = pdus.find((d) => d.id === inlet.device.id)!;
        const feed = feeds.find((f: Json) => f.name === `${String(pdu.rack.name)}-A`);
        return cable('powerport', inlet, 'powerfeed', feed, { type: 'power' });
      }),
    ),
  );
}
