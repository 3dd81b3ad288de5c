/**
 * The navigation menu: NetBox's menus and groups in NetBox's order (netbox/navigation/menu.py, as
 * the UI reference lists it), naming models by identity. An item shows when the model is registered
 * and the user may view it, a group when it has an item, a menu when it has a group: a model added
 * to the registry appears here once it is named below, and a model never named still has its pages.
 */
import { hasPermission } from '../../core/auth/permissions.js';
import type { RequestContext } from '../../core/context.js';
import type { ModelDef } from '../../core/model/types.js';
import { capitalize } from '../labels.js';

type MenuSpec = ReadonlyArray<readonly [menu: string, groups: ReadonlyArray<readonly [group: string, models: string]>]>;

// NetBox 4.4 navigation/menu.py; models NetBox has and this service does not are simply absent
const MENU: MenuSpec = [
  [
    'Organization',
    [
      ['Sites', 'dcim.region dcim.sitegroup dcim.site dcim.location'],
      ['Tenancy', 'tenancy.tenant tenancy.tenantgroup'],
      ['Contacts', 'tenancy.contact tenancy.contactgroup tenancy.contactrole tenancy.contactassignment'],
    ],
  ],
  [
    'Racks',
    [
      ['Racks', 'dcim.rack dcim.rackrole dcim.rackreservation'],
      ['Rack Types', 'dcim.racktype'],
    ],
  ],
  [
    'Devices',
    [
      [
        'Devices',
        'dcim.device dcim.module dcim.devicerole dcim.platform dcim.virtualchassis dcim.virtualdevicecontext',
      ],
      ['Device Types', 'dcim.devicetype dcim.moduletype dcim.moduletypeprofile dcim.manufacturer'],
      [
        'Device Components',
        'dcim.interface dcim.frontport dcim.rearport dcim.consoleport dcim.consoleserverport dcim.powerport dcim.poweroutlet dcim.modulebay dcim.devicebay dcim.inventoryitem dcim.inventoryitemrole',
      ],
      ['Addressing', 'dcim.macaddress'],
    ],
  ],
  ['Connections', [['Connections', 'dcim.cable wireless.wirelesslink']]],
  ['Wireless', [['Wireless', 'wireless.wirelesslan wireless.wirelesslangroup']]],
  [
    'IPAM',
    [
      ['IP Addresses', 'ipam.ipaddress ipam.iprange'],
      ['Prefixes', 'ipam.prefix ipam.role'],
      ['ASNs', 'ipam.asnrange ipam.asn'],
      ['Aggregates', 'ipam.aggregate ipam.rir'],
      ['VRFs', 'ipam.vrf ipam.routetarget'],
      ['VLANs', 'ipam.vlan ipam.vlangroup ipam.vlantranslationpolicy ipam.vlantranslationrule'],
      ['Other', 'ipam.fhrpgroup ipam.servicetemplate ipam.service'],
    ],
  ],
  [
    'VPN',
    [
      ['Tunnels', 'vpn.tunnel vpn.tunnelgroup vpn.tunneltermination'],
      ['L2VPNs', 'vpn.l2vpn vpn.l2vpntermination'],
      ['Security', 'vpn.ikeproposal vpn.ikepolicy vpn.ipsecproposal vpn.ipsecpolicy vpn.ipsecprofile'],
    ],
  ],
  [
    'Virtualization',
    [
      ['Virtual Machines', 'virtualization.virtualmachine virtualization.vminterface virtualization.virtualdisk'],
      ['Clusters', 'virtualization.cluster virtualization.clustertype virtualization.clustergroup'],
    ],
  ],
  [
    'Circuits',
    [
      ['Circuits', 'circuits.circuit circuits.circuittype circuits.circuittermination'],
      ['Virtual Circuits', 'circuits.virtualcircuit circuits.virtualcircuittype circuits.virtualcircuittermination'],
      ['Groups', 'circuits.circuitgroup circuits.circuitgroupassignment'],
      ['Providers', 'circuits.provider circuits.provideraccount circuits.providernetwork'],
    ],
  ],
  ['Power', [['Power', 'dcim.powerfeed dcim.powerpanel']]],
  ['Provisioning', [['Configurations', 'extras.configcontext extras.configcontextprofile extras.configtemplate']]],
  [
    'Customization',
    [
      [
        'Customization',
        'extras.customfield extras.customfieldchoiceset extras.customlink extras.exporttemplate extras.savedfilter extras.tableconfig extras.tag extras.imageattachment',
      ],
    ],
  ],
  [
    'Operations',
    [
      ['Integrations', 'core.datasource extras.eventrule extras.webhook'],
      ['Jobs', 'core.job'],
      ['Logging', 'extras.notificationgroup extras.journalentry extras.objectchange'],
    ],
  ],
  ['Admin', [['Authentication', 'users.user users.group users.token users.objectpermission']]],
];

/** the rack elevations page (web/pages/rack-elevations.page.ts) */
export const RACK_ELEVATIONS_PATH = '/dcim/rack-elevations/';

/**
 * Pages that are no model's list but have a place in a group, after its models (NetBox: a
 * MenuItem by link, shown with the permission it names); the list page of `model` links to them.
 */
const VIEW_PAGES: Record<string, ReadonlyArray<{ label: string; href: string; model: string }>> = {
  // NetBox 4.4: Racks > Racks, Reservations, Elevations (dcim.view_rack)
  Racks: [{ label: 'Elevations', href: RACK_ELEVATIONS_PATH, model: 'dcim.rack' }],
};

/** the pages beside a model's list that show the same objects otherwise (the racks' elevations) */
export function viewPagesOf(model: ModelDef): Array<{ label: string; href: string }> {
  return Object.values(VIEW_PAGES)
    .flat()
    .filter((p) => p.model === model.name);
}

/** a model's list (what the dashboard counts), or another page: a view of a model, or of none (System) */
type MenuItem = { label: string; href: string } & (
  | { isList: true; model: ModelDef }
  | { isList: false; model?: ModelDef }
);
interface MenuGroup {
  label: string;
  items: MenuItem[];
}
export interface Menu {
  label: string;
  groups: MenuGroup[];
}

/** the list page of a model: NetBox's UI path, the REST path without /api unless its hints say otherwise */
export function listPath(model: ModelDef): string {
  return model.ui?.path ?? `/${model.app}/${model.path}/`;
}

/** the system page and the background tasks (web/pages/): NetBox 4.4's Admin > System, superusers only */
export const SYSTEM_PATH = '/core/system/';
export const BACKGROUND_TASKS_PATH = '/core/background-tasks/';
const SUPERUSER_PAGES: ReadonlyArray<readonly [menu: string, group: string, label: string, href: string]> = [
  ['Admin', 'System', 'System', SYSTEM_PATH],
  ['Admin', 'System', 'Background tasks', BACKGROUND_TASKS_PATH],
];

/** The menu as this user sees it. */
export async function menuFor(rc: RequestContext): Promise<Menu[]> {
  const registry = rc.app.registry;
  const out: Menu[] = [];
  for (const [label, groups] of MENU) {
    const menu: Menu = { label, groups: [] };
    for (const [groupLabel, names] of groups) {
      const items: MenuItem[] = [];
      for (const name of names.split(' ')) {
        const model = registry.find(name);
        if (!model || !(await hasPermission(rc, model, 'view'))) continue;
        items.push({ model, label: capitalize(model.verboseNamePlural), href: listPath(model), isList: true });
      }
      for (const extra of VIEW_PAGES[groupLabel] ?? []) {
        const model = registry.find(extra.model);
        if (model && (await hasPermission(rc, model, 'view')))
          items.push({ model, label: extra.label, href: extra.href, isList: false });
      }
      if (items.length) menu.groups.push({ label: groupLabel, items });
    }
    if (rc.user?.is_superuser) addSuperuserPages(menu);
    if (menu.groups.length) out.push(menu);
  }
  return out;
}

function addSuperuserPages(menu: Menu): void {
  for (const [menuLabel, groupLabel, label, href] of SUPERUSER_PAGES) {
    if (menuLabel !== menu.label) continue;
    let group = menu.groups.find((g) => g.label === groupLabel);
    if (!group) menu.groups.push((group = { label: groupLabel, items: [] }));
    group.items.push({ label, href, isList: false });
  }
}
