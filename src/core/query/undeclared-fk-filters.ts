/**
 * Foreign keys whose `<fk>=` form NetBox does not declare. Every other foreign key filters by
 * the target's natural key as `<fk>=` (a site's slug, a device's name) and by id as `<fk>_id=`;
 * for these only `<fk>_id=` exists, and `<fk>=` is an unknown name: ignored, the list unfiltered
 * by it (reference 8.3), and absent from the OpenAPI document, as in NetBox.
 *
 * Why ignore rather than read the value as an id: NetBox clients send these names with ids and
 * rely on NetBox ignoring them. The netbox.netbox collection's existence checks ask
 * `front-ports/?device_id=1&name=X&rear_port=7`, `power-feeds/?name=X&power_panel=3`,
 * `wireless-links/?interface_a=6&interface_b=5` and `rear-port-templates/?device_type=1&...`; when
 * a playbook moves a front port to another rear port, NetBox still finds the port by device and
 * name and updates it, where a filter on the new rear port would find nothing and the module's
 * create would fail on the unique name.
 *
 * Source: the list endpoints' filter names in NetBox's OpenAPI document (reference
 * netbox-filters.md), and for the fields NetBox 4 added, NetBox 4.4's filter sets; the test test/api/core/undeclared-fk-filters.test.ts checks that no other
 * `<fk>=` name is served that NetBox lacks.
 */
import type { ModelDef } from '../model/types.js';

const UNDECLARED: Readonly<Record<string, readonly string[]>> = {
  'circuits.circuit': ['provider_account'],
  'circuits.circuittermination': ['circuit', 'provider_network'],
  'dcim.consoleport': ['module'],
  'dcim.consoleporttemplate': ['device_type', 'module_type'],
  'dcim.consoleserverport': ['module'],
  'dcim.consoleserverporttemplate': ['device_type', 'module_type'],
  'dcim.device': [
    'cluster',
    'config_template',
    'device_role',
    'location',
    'primary_ip4',
    'primary_ip6',
    'rack',
    'virtual_chassis',
  ],
  'dcim.devicebay': ['installed_device'],
  'dcim.devicebaytemplate': ['device_type'],
  'dcim.devicerole': ['config_template'],
  'dcim.frontport': ['module', 'rear_port'],
  'dcim.frontporttemplate': ['device_type', 'module_type'],
  'dcim.interface': ['bridge', 'lag', 'module', 'parent', 'qinq_svlan', 'untagged_vlan'],
  'dcim.interfacetemplate': ['bridge', 'device_type', 'module_type'],
  'dcim.inventoryitem': ['parent'],
  'dcim.inventoryitemtemplate': ['device_type', 'parent'],
  'dcim.module': ['device', 'module_bay'],
  'dcim.modulebaytemplate': ['device_type'],
  'dcim.platform': ['config_template'],
  'dcim.powerfeed': ['power_panel', 'rack'],
  'dcim.poweroutlet': ['module', 'power_port'],
  'dcim.poweroutlettemplate': ['device_type', 'module_type'],
  'dcim.powerpanel': ['location'],
  'dcim.powerport': ['module'],
  'dcim.powerporttemplate': ['device_type', 'module_type'],
  'dcim.rackreservation': ['rack'],
  'dcim.rearport': ['module'],
  'dcim.rearporttemplate': ['device_type', 'module_type'],
  'dcim.virtualdevicecontext': ['primary_ip4', 'primary_ip6'],
  'ipam.fhrpgroupassignment': ['group'],
  'ipam.ipaddress': ['nat_inside'],
  'ipam.prefix': ['vlan'],
  'ipam.vlan': ['qinq_svlan'],
  'tenancy.contactassignment': ['contact'],
  'virtualization.virtualmachine': ['config_template', 'primary_ip4', 'primary_ip6'],
  'virtualization.vminterface': ['bridge', 'parent', 'qinq_svlan', 'untagged_vlan'],
  'vpn.tunneltermination': ['outside_ip'],
  'wireless.wirelesslan': ['vlan'],
  'wireless.wirelesslink': ['interface_a', 'interface_b'],
};

/** false when NetBox has no `<key>=` filter on the model's list (only `<key>_id=`) */
export function fkNameFilterDeclared(model: ModelDef, key: string): boolean {
  return !UNDECLARED[model.name]?.includes(key);
}

/** every model identity and key listed, for the test that keeps the list in step with the models */
export function undeclaredFkFilters(): ReadonlyArray<[string, string]> {
  return Object.entries(UNDECLARED).flatMap(([model, keys]) => keys.map((k): [string, string] => [model, k]));
}
