/**
 * VLAN translation policies (NetBox 4.2, fields as in 4.4): a named set of rules mapping local VIDs
 * to remote ones (vlan-translation-rule.model.ts), shown read-only as `rules`. Served in the 4.4
 * dialect only. NetBox's serializer shows neither tags nor custom fields, nor takes them; nor do we.
 * Device and VM interfaces name one in `vlan_translation_policy` (dcim/interface-qinq.ts), which
 * keeps it from being deleted.
 */
import { type RawBuilder, sql } from 'kysely';
import { defineModel } from '../../core/model/define-model.js';
import { type Ids, idIn } from '../../core/represent/load-related.js';
import { render } from '../../core/represent/render.js';
import { description, name } from '../fields.js';

const RULE_SHAPE = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    url: { type: 'string' },
    display: { type: 'string' },
    policy: { type: 'integer' },
    local_vid: { type: 'integer' },
    remote_vid: { type: 'integer' },
    description: { type: 'string' },
  },
};

/** the rules of a page's policies, read with the page */
const rulesSql = (ids: Ids): RawBuilder<unknown> =>
  sql`select * from ipam_vlantranslationrule where ${idIn(sql.ref('policy_id'), ids)}`;

export const vlanTranslationPolicy = defineModel({
  name: 'ipam.vlantranslationpolicy',
  path: 'vlan-translation-policies',
  verboseName: 'VLAN translation policy',
  verboseNamePlural: 'VLAN translation policies',
  dialect: '4.4',
  fields: {
    name: name(100, { unique: true }),
    description: description(),
    // NetBox 4.2: the policy's rules in the rule serializer's form, in the rules' order
    rules: { kind: 'computed', readOnly: true, shape: { type: 'array', items: RULE_SHAPE } },
  },
  tags: false,
  customFields: false,
  hooks: {
    async represent(rc, rows, out, { mode, created, readRows }) {
      if (mode !== 'full') return;
      // a policy just created has no rules yet
      const rules = created ? [] : await readRows('rules');
      const ruleModel = rc.app.registry.get('ipam.vlantranslationrule');
      const sorted = [...rules].sort((a, b) => Number(a.local_vid) - Number(b.local_vid));
      const rendered = await render(rc, ruleModel, sorted, 'brief');
      const byPolicy = new Map<number, unknown[]>();
      sorted.forEach((r, i) => {
        const list = byPolicy.get(Number(r.policy_id)) ?? [];
        list.push(rendered[i]);
        byPolicy.set(Number(r.policy_id), list);
      });
      rows.forEach((r, i) => {
        if ('rules' in out[i]!) out[i]!.rules = byPolicy.get(Number(r.id)) ?? [];
      });
    },
  },
  representRows: { rules: { model: 'ipam.vlantranslationrule', select: rulesSql } },
  representReads: [],
  ui: {
    columns: ['name', 'description'],
    groups: [{ title: 'VLAN Translation Policy', fields: ['name', 'description'] }],
    related: [{ model: 'ipam.vlantranslationrule', param: 'policy_id', label: 'Rules' }],
  },
  brief: ['name', 'description'],
  ordering: ['name'],
  search: ['name', 'description'],
});
