/**
 * The community device-type library's document shape (NetBox 4.4's device type and module type
 * YAML import): the type's own fields at the top, and one list per kind of component template,
 * under the keys NetBox's import names them by. Lists are created in this order, so a front port
 * finds its rear port and a power outlet its power port (by name, within the new type).
 */

export interface ComponentList {
  /** the document's key (`console-ports`) */
  key: string;
  /** the template model (`dcim.consoleporttemplate`) */
  model: string;
  /** fields naming another template of the same type by name: the field and the list it names */
  refs?: Record<string, string>;
}

const COMPONENT_LISTS: readonly ComponentList[] = [
  { key: 'console-ports', model: 'dcim.consoleporttemplate' },
  { key: 'console-server-ports', model: 'dcim.consoleserverporttemplate' },
  { key: 'power-ports', model: 'dcim.powerporttemplate' },
  { key: 'power-outlets', model: 'dcim.poweroutlettemplate', refs: { power_port: 'power-ports' } },
  { key: 'interfaces', model: 'dcim.interfacetemplate', refs: { bridge: 'interfaces' } },
  { key: 'rear-ports', model: 'dcim.rearporttemplate' },
  { key: 'front-ports', model: 'dcim.frontporttemplate', refs: { rear_port: 'rear-ports' } },
  { key: 'module-bays', model: 'dcim.modulebaytemplate' },
  { key: 'device-bays', model: 'dcim.devicebaytemplate' },
  { key: 'inventory-items', model: 'dcim.inventoryitemtemplate', refs: { parent: 'inventory-items' } },
];

/** NetBox 4.4 ModuleTypeImportView: the port kinds only, no bays and no inventory items */
const MODULE_TYPE_LISTS = new Set([
  'console-ports',
  'console-server-ports',
  'power-ports',
  'power-outlets',
  'interfaces',
  'rear-ports',
  'front-ports',
]);

export const TYPE_LIBRARY_MODELS = new Set(['dcim.devicetype', 'dcim.moduletype']);

/** the component lists a document of `model` (device type or module type) may hold */
export function listsOf(model: string): ComponentList[] {
  return COMPONENT_LISTS.filter((l) => model === 'dcim.devicetype' || MODULE_TYPE_LISTS.has(l.key));
}

/** the field of a template naming its type */
export function parentField(model: string): 'device_type' | 'module_type' {
  return model === 'dcim.devicetype' ? 'device_type' : 'module_type';
}

/**
 * Keys of the library's files that describe the files beside them (its images), not the type:
 * NetBox's import form has no such fields and passes them by.
 */
export const LIBRARY_ONLY_KEYS = new Set(['front_image', 'rear_image']);
