/**
 * VLAN translation rules (NetBox 4.2, fields as in 4.4): one local VID mapped to one remote VID in
 * a policy; each VID at most once per policy. Served in the 4.4 dialect only. NetBox's serializer
 * shows and takes the policy as a bare id (a plain related field), and no tags or custom fields.
 */
import { sql } from 'kysely';
import { defineModel } from '../../core/model/define-model.js';
import type { CustomFilter, Row } from '../../core/model/types.js';
import { searchTerm } from '../../core/query/filter-conditions.js';
import { likeEscape, likeFor } from '../../core/query/lookups.js';
import { fetchRowsById } from '../../core/represent/load-related.js';
import { description, fk } from '../fields.js';

const vid = (label: string) =>
  ({ kind: 'integer', required: true, min: 1, max: 4094, label, help: 'Numeric VLAN ID (1-4094)' }) as const;

/** NetBox 4.2 searches the policy's name, and either VID when the term is a number */
const searchFilter: CustomFilter = {
  async build(values, _lookup, { alias }) {
    const q = searchTerm(values);
    if (!q) return null;
    const t = (c: string) => sql.ref(`${alias}.${c}`);
    const byPolicy = sql`${t('policy_id')} in (select id from ipam_vlantranslationpolicy where name ${likeFor(q)} ${`%${likeEscape(q)}%`})`;
    if (!/^\s*[+-]?\d+\s*$/.test(q) || !Number.isSafeInteger(Number(q))) return byPolicy;
    const n = Number(q);
    return sql`(${byPolicy} or ${t('local_vid')} = ${n} or ${t('remote_vid')} = ${n})`;
  },
};

const displayOf = (row: Row, policy: string) => `${row.local_vid} -> ${row.remote_vid} (${policy})`;

export const vlanTranslationRule = defineModel({
  name: 'ipam.vlantranslationrule',
  path: 'vlan-translation-rules',
  verboseName: 'VLAN translation rule',
  dialect: '4.4',
  fields: {
    policy: {
      ...fk('ipam.vlantranslationpolicy', { required: true, nullable: false, onDelete: 'cascade' }),
      shape: { type: 'integer' },
    },
    local_vid: vid('Local VLAN ID'),
    remote_vid: vid('Remote VLAN ID'),
    description: description(),
  },
  tags: false,
  customFields: false,
  uniqueTogether: [{ fields: ['policy', 'local_vid'] }, { fields: ['policy', 'remote_vid'] }],
  filters: { q: searchFilter },
  relatedObject: 'policy',
  // without the policy's name at hand (change log); the API's forms name it (represent below)
  display: (row) => displayOf(row, `policy ${row.policy_id}`),
  hooks: {
    async represent(rc, rows, out) {
      const policies = await fetchRowsById(rc, rc.app.registry.get('ipam.vlantranslationpolicy'), [
        ...new Set(rows.map((r) => Number(r.policy_id))),
      ]);
      const names = new Map(policies.map((p) => [Number(p.id), String(p.name)]));
      rows.forEach((r, i) => {
        const o = out[i]!;
        // NetBox 4.4 renders the policy as its primary key
        if ('policy' in o) o.policy = Number(r.policy_id);
        const name = names.get(Number(r.policy_id));
        if (name !== undefined && 'display' in o) o.display = displayOf(r, name);
      });
    },
  },
  ui: {
    columns: ['policy', 'local_vid', 'remote_vid', 'description'],
    clone: ['policy'],
    groups: [{ title: 'VLAN Translation Rule', fields: ['policy', 'local_vid', 'remote_vid', 'description'] }],
  },
  brief: ['policy', 'local_vid', 'remote_vid', 'description'],
  ordering: ['policy', 'local_vid'],
  search: ['description'],
});
