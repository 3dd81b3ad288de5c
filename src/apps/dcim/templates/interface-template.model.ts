/**
 * Interface templates (NetBox 3.4 InterfaceTemplate, with the 3.5-3.7 additions clients send:
 * `enabled`, `bridge` (another template of the same type) and `rf_role` (wireless types only)).
 */
import { InterfaceType, PoEMode, PoEType, WIRELESS_INTERFACE_TYPES } from '../choices.js';
import { fk } from '../../fields.js';
import { rowById } from '../../../core/crud/row-by-id.js';
import { defineTemplate, parentWord, sameParent, templateDisplay } from './define-template.js';
import { WirelessRole } from './template-choices.js';

export const interfaceTemplate = defineTemplate({
  name: 'dcim.interfacetemplate',
  path: 'interface-templates',
  verboseName: 'interface template',
  modular: true,
  fields: {
    type: { kind: 'choice', choices: InterfaceType, required: true },
    enabled: { kind: 'boolean', default: true },
    mgmt_only: { kind: 'boolean', default: false, label: 'management only' },
    bridge: fk('dcim.interfacetemplate', {
      onDelete: 'set_null',
      label: 'bridge interface',
      relatedName: 'bridge_interfaces',
    }),
    poe_mode: { kind: 'choice', choices: PoEMode, blank: true, label: 'PoE mode' },
    poe_type: { kind: 'choice', choices: PoEType, blank: true, label: 'PoE type' },
    rf_role: { kind: 'choice', choices: WirelessRole, blank: true, label: 'wireless role' },
  },
  async validate(rc, data) {
    // NetBox 3.7 InterfaceTemplate.clean()
    if (data.bridge_id != null) {
      if (data.id != null && Number(data.bridge_id) === Number(data.id))
        return { bridge: ['An interface cannot be bridged to itself.'] };
      const bridge = await rowById(rc, 'dcim_interfacetemplate', data.bridge_id);
      if (bridge && !sameParent(bridge, data)) {
        return {
          bridge: [`Bridge interface (${templateDisplay(bridge)}) must belong to the same ${parentWord(data)}`],
        };
      }
    }
    if (data.rf_role && !WIRELESS_INTERFACE_TYPES.has(String(data.type))) {
      return { rf_role: ['Wireless role may be set only on wireless interfaces.'] };
    }
  },
});
