/**
 * The object page's tabs of a device type's or module type's component templates, in NetBox's
 * order (netbox-ui.md section 4): bays only on a device type, which alone holds them in 3.4.
 */
import type { UiTab } from '../../../core/model/types.js';

const PORTS: Array<[slug: string, model: string, label: string]> = [
  ['interfaces', 'dcim.interfacetemplate', 'Interfaces'],
  ['front-ports', 'dcim.frontporttemplate', 'Front ports'],
  ['rear-ports', 'dcim.rearporttemplate', 'Rear ports'],
  ['console-ports', 'dcim.consoleporttemplate', 'Console ports'],
  ['console-server-ports', 'dcim.consoleserverporttemplate', 'Console server ports'],
  ['power-ports', 'dcim.powerporttemplate', 'Power ports'],
  ['power-outlets', 'dcim.poweroutlettemplate', 'Power outlets'],
];

/** `param`: the templates' filter naming the type (`devicetype_id`, `moduletype_id`) */
export function templateTabs(param: string, ofDeviceType: boolean): UiTab[] {
  const tab = ([slug, model, label]: [string, string, string]): UiTab => ({ slug, model, param, label });
  if (!ofDeviceType) return PORTS.map(tab);
  return [
    tab(['device-bays', 'dcim.devicebaytemplate', 'Device bays']),
    tab(['module-bays', 'dcim.modulebaytemplate', 'Module bays']),
    ...PORTS.map(tab),
    tab(['inventory-items', 'dcim.inventoryitemtemplate', 'Inventory items']),
  ];
}
