/**
 * Cable terminations (reference 3.2), read-only: one row per object on a cable end, written
 * through the cable (a_terminations / b_terminations). Not change-logged, as in NetBox 3.4.
 * Rendered `{id, url, display, cable (id), cable_end, termination_type, termination_id, termination}`.
 */
import { defineModel } from '../../core/model/define-model.js';
import { fk } from '../fields.js';
import { TERMINATION_TYPES } from './cabling.js';
import { retraceAfterTerminationDelete } from './paths/upkeep.js';

export const cableTermination = defineModel({
  name: 'dcim.cabletermination',
  path: 'cable-terminations',
  verboseName: 'cable termination',
  readOnly: true,
  tags: false,
  customFields: false,
  changelog: false,
  timestamps: false,
  fields: {
    // rendered as the cable's id (represent below)
    cable: fk('dcim.cable', {
      required: true,
      nullable: false,
      onDelete: 'cascade',
      shape: { type: 'integer' },
      relatedName: 'terminations',
    }),
    cable_end: { kind: 'string', maxLength: 1, required: true },
    termination_type: { kind: 'contenttype', required: true, types: Object.keys(TERMINATION_TYPES) },
    termination_id: { kind: 'integer', required: true },
    // deleting the terminated object deletes its termination (the cable stays)
    termination: { kind: 'generic', generic: { type: 'termination_type', id: 'termination_id' }, onDelete: 'cascade' },
  },
  hooks: {
    // a termination gone (its cable or its object deleted): the paths through them change
    afterDelete: retraceAfterTerminationDelete,
    represent(_rc, rows, out) {
      rows.forEach((r, i) => {
        const o = out[i]!;
        const term = o.termination as { display?: string } | null | undefined;
        if ('cable' in o) o.cable = Number(r.cable_id);
        o.display = term?.display
          ? `Cable #${String(r.cable_id)} to ${term.display}`
          : `Cable #${String(r.cable_id)} (${String(r.cable_end)})`;
      });
    },
  },
  display: (row) => `Cable #${row.cable_id} (${row.cable_end})`,
  brief: ['cable', 'cable_end', 'termination_type', 'termination_id'],
  // NetBox 4.4 declares no brief form for cable terminations: `?brief=1` shows the full one
  netbox44: { brief: ['cable', 'cable_end', 'termination_type', 'termination_id', 'termination'] },
  ordering: ['cable', 'cable_end', 'id'],
  search: [],
});
