/** Power outlet templates (NetBox 3.4 PowerOutletTemplate): fed by a power port template of the same type. */
import { PowerOutletFeedLeg, PowerOutletType } from '../component-choices.js';
import { fk } from '../../fields.js';
import { rowById } from '../../../core/crud/row-by-id.js';
import { defineTemplate, parentWord, sameParent, templateDisplay } from './define-template.js';

export const powerOutletTemplate = defineTemplate({
  name: 'dcim.poweroutlettemplate',
  path: 'power-outlet-templates',
  verboseName: 'power outlet template',
  modular: true,
  fields: {
    type: { kind: 'choice', choices: PowerOutletType, blank: true },
    power_port: fk('dcim.powerporttemplate', {
      onDelete: 'set_null',
      noFilter: true,
      relatedName: 'poweroutlet_templates',
    }),
    feed_leg: { kind: 'choice', choices: PowerOutletFeedLeg, blank: true, help: 'Phase (for three-phase feeds)' },
  },
  async validate(rc, data) {
    // NetBox 3.4 PowerOutletTemplate.clean()
    const port = await rowById(rc, 'dcim_powerporttemplate', data.power_port_id);
    if (port && !sameParent(port, data)) {
      return { __all__: [`Parent power port (${templateDisplay(port)}) must belong to the same ${parentWord(data)}`] };
    }
  },
});
