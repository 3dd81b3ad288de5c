/** Device bay templates (NetBox 3.4 DeviceBayTemplate): only on parent device types. */
import { rowById } from '../../../core/crud/row-by-id.js';
import { defineTemplate } from './define-template.js';

export const deviceBayTemplate = defineTemplate({
  name: 'dcim.devicebaytemplate',
  path: 'device-bay-templates',
  verboseName: 'device bay template',
  modular: false,
  fields: {},
  async validate(rc, data) {
    // NetBox 3.4 DeviceBayTemplate.clean()
    const type = await rowById(rc, 'dcim_devicetype', data.device_type_id);
    if (type && type.subdevice_role !== 'parent') {
      return {
        __all__: [
          `Subdevice role of device type (${String(type.model)}) must be set to "parent" to allow device bays.`,
        ],
      };
    }
  },
});
