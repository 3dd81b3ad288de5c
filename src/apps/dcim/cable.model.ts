/**
 * Cables (reference 3.2): connect objects (interfaces; circuit terminations once circuits are
 * registered). `a_terminations` / `b_terminations` are written as `[{object_type, object_id}]` and
 * read with the object nested from dcim_cabletermination, which is written after the cable row
 * (afterWrite hook). The cable keeps the ends as last written too, for its change records.
 * `type` is a bare value, as NetBox renders it.
 */
import { defineModel } from '../../core/model/define-model.js';
import type { Row } from '../../core/model/types.js';
import { comments, description, fk } from '../fields.js';
import { CABLE_TYPES, CableLengthUnit, LinkStatus } from './choices.js';
import { ENDS, loadCableEnds, terminationKeys, validateTerminations, writeTerminations } from './cabling.js';
import { cableFilters } from './cable-filters.js';
import { retraceAfterDelete, retraceCable } from './paths/upkeep.js';
import { viaPair } from '../../core/query/filter-blocks.js';

const isCableType = (v: unknown) =>
  v === '' || CABLE_TYPES.has(String(v)) ? undefined : `"${String(v)}" is not a valid choice.`;

export const cable = defineModel({
  name: 'dcim.cable',
  path: 'cables',
  verboseName: 'cable',
  fields: {
    type: { kind: 'string', maxLength: 50, validate: isCableType },
    a_terminations: { kind: 'json', noFilter: true, noOrdering: true },
    b_terminations: { kind: 'json', noFilter: true, noOrdering: true },
    status: { kind: 'choice', choices: LinkStatus, default: 'connected' },
    tenant: fk('tenancy.tenant', { onDelete: 'protect' }),
    label: { kind: 'string', maxLength: 100 },
    color: {
      kind: 'string',
      maxLength: 6,
      pattern: { regex: /^[0-9a-f]{6}$/, message: 'Enter a valid hexadecimal RGB color code.' },
    },
    length: { kind: 'decimal', nullable: true, min: 0, decimalPlaces: 2 },
    length_unit: { kind: 'choice', choices: CableLengthUnit, blank: true, nullable: true },
    description: description(),
    comments: comments(),
  },
  filters: {
    // device, rack, location, site and per-kind filters through the terminations (cable-filters.ts)
    ...cableFilters(),
    ...viaPair('tenant_group', ['tenant', 'group']),
  },
  hooks: {
    async validate({ rc, data, before, sent, earlier }) {
      const errors = await validateTerminations(
        rc,
        data,
        before ? Number(before.id) : null,
        sent,
        terminationKeys(earlier),
      );
      // NetBox 3.4 Cable.clean(): a length needs its unit
      if (data.length != null && !data.length_unit)
        errors.length_unit = ['Must specify a unit when setting a cable length'];
      return errors;
    },
    prepare({ data }) {
      if (data.length === null && 'length' in data) data.length_unit = '';
      // the ends are kept as written for change records; dcim_cabletermination holds the truth
      for (const [, key] of ENDS) {
        if (Array.isArray(data[key])) {
          data[key] = (data[key] as Row[]).map((t) => ({ object_type: t.object_type, object_id: Number(t.object_id) }));
        } else if (key in data) data[key] = [];
      }
    },
    async afterWrite({ rc, data, row, sent, before }) {
      await writeTerminations(rc, Number(row.id), data, sent);
      // stored paths follow the cable's ends and status (paths/README.md)
      if (!before || ['status', 'a_terminations', 'b_terminations'].some((k) => sent.has(k)))
        await retraceCable(rc, Number(row.id));
    },
    afterDelete: retraceAfterDelete('dcim.cable'),
    async represent(rc, rows, out, { mode }) {
      if (mode !== 'full') return;
      const ends = await loadCableEnds(
        rc,
        rows.map((r) => Number(r.id)),
      );
      rows.forEach((r, i) => {
        const e = ends.get(Number(r.id))!;
        for (const [end, key] of ENDS) out[i]![key] = e[end];
      });
    },
  },
  // NetBox: the label, else "#<id>"
  display: (row) => (row.label ? String(row.label) : `#${row.id}`),
  ui: {
    columns: ['id', 'label', 'a_terminations', 'b_terminations', 'status', 'type'],
    clone: ['tenant', 'type'],
    groups: [
      { title: 'A Side', fields: ['a_terminations'] },
      { title: 'B Side', fields: ['b_terminations'] },
      { title: 'Cable', fields: ['status', 'type', 'label', 'description', 'color', 'length', 'length_unit'] },
      { title: 'Tenancy', fields: ['tenant'] },
    ],
  },
  brief: ['label'],
  ordering: ['id'],
  search: ['label', 'description', 'comments'],
});
