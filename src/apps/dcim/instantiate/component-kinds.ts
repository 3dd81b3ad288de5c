/**
 * Which component each template kind makes and what it copies (NetBox 3.4-3.7 `instantiate()` of
 * each template class), in the order NetBox's Device.save() creates them: power ports before the
 * outlets that name them, rear ports before the front ports mapped onto them, inventory items last
 * (they may name any of the others).
 */
export interface ComponentKind {
  /** template model / table */
  template: string;
  table: string;
  /** component model identity */
  component: string;
  /** NetBox's class name, for the module install messages */
  className: string;
  /** template columns copied as they are (when the component model has the field) */
  copy: string[];
  /** template fk -> the component made from the template it points at (same owner) */
  refs?: Record<string, string>;
  /** may sit on a module type (the modular kinds) */
  modular: boolean;
}

const named = ['name', 'label'];

export const COMPONENT_KINDS: ComponentKind[] = [
  {
    template: 'dcim.consoleporttemplate',
    table: 'dcim_consoleporttemplate',
    component: 'dcim.consoleport',
    className: 'ConsolePort',
    copy: [...named, 'type'],
    modular: true,
  },
  {
    template: 'dcim.consoleserverporttemplate',
    table: 'dcim_consoleserverporttemplate',
    component: 'dcim.consoleserverport',
    className: 'ConsoleServerPort',
    copy: [...named, 'type'],
    modular: true,
  },
  {
    template: 'dcim.powerporttemplate',
    table: 'dcim_powerporttemplate',
    component: 'dcim.powerport',
    className: 'PowerPort',
    copy: [...named, 'type', 'maximum_draw', 'allocated_draw'],
    modular: true,
  },
  {
    template: 'dcim.poweroutlettemplate',
    table: 'dcim_poweroutlettemplate',
    component: 'dcim.poweroutlet',
    className: 'PowerOutlet',
    copy: [...named, 'type', 'feed_leg'],
    refs: { power_port_id: 'dcim.powerporttemplate' },
    modular: true,
  },
  // bridges are set once every interface exists (NetBox 3.7 update_interface_bridges)
  {
    template: 'dcim.interfacetemplate',
    table: 'dcim_interfacetemplate',
    component: 'dcim.interface',
    className: 'Interface',
    copy: [...named, 'type', 'enabled', 'mgmt_only', 'poe_mode', 'poe_type', 'rf_role'],
    modular: true,
  },
  {
    template: 'dcim.rearporttemplate',
    table: 'dcim_rearporttemplate',
    component: 'dcim.rearport',
    className: 'RearPort',
    copy: [...named, 'type', 'color', 'positions'],
    modular: true,
  },
  {
    template: 'dcim.frontporttemplate',
    table: 'dcim_frontporttemplate',
    component: 'dcim.frontport',
    className: 'FrontPort',
    copy: [...named, 'type', 'color', 'rear_port_position'],
    refs: { rear_port_id: 'dcim.rearporttemplate' },
    modular: true,
  },
  {
    template: 'dcim.modulebaytemplate',
    table: 'dcim_modulebaytemplate',
    component: 'dcim.modulebay',
    className: 'ModuleBay',
    copy: [...named, 'position'],
    modular: false,
  },
  {
    template: 'dcim.devicebaytemplate',
    table: 'dcim_devicebaytemplate',
    component: 'dcim.devicebay',
    className: 'DeviceBay',
    copy: named,
    modular: false,
  },
  // parent and component are resolved level by level (instantiate.ts)
  {
    template: 'dcim.inventoryitemtemplate',
    table: 'dcim_inventoryitemtemplate',
    component: 'dcim.inventoryitem',
    className: 'InventoryItem',
    copy: [...named, 'role_id', 'manufacturer_id', 'part_id'],
    modular: false,
  },
];

/** template model identity -> the component model it makes */
export const COMPONENT_OF_TEMPLATE = new Map(COMPONENT_KINDS.map((k) => [k.template, k.component]));

/** NetBox MODULE_TOKEN: replaced by the module bay's position */
export const MODULE_TOKEN = '{module}';
