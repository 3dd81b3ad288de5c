/**
 * IKE policies (NetBox 3.7 vpn.IKEPolicy): an IKE version, a mode, the proposals offered and a
 * pre-shared key. NetBox's rule: IKEv1 needs a mode, IKEv2 takes none.
 */
import { defineModel } from '../../core/model/define-model.js';
import { comments, description, name } from '../fields.js';
import { IKEMode, IKEVersion } from './choices.js';
import { memberFilter } from './filters.js';

export const POLICY_PROPOSALS = { table: 'vpn_ikepolicy_proposals', from: 'ikepolicy_id', to: 'ikeproposal_id' };

const proposals = (param: string, column: 'id' | 'name') =>
  memberFilter(param, {
    table: POLICY_PROPOSALS.table,
    own: POLICY_PROPOSALS.from,
    other: POLICY_PROPOSALS.to,
    memberTable: 'vpn_ikeproposal',
    column,
  });

export const ikePolicy = defineModel({
  name: 'vpn.ikepolicy',
  path: 'ike-policies',
  verboseName: 'IKE policy',
  verboseNamePlural: 'IKE policies',
  schemaName: 'IKEPolicy',
  fields: {
    name: name(100, { unique: true }),
    description: description(),
    version: { kind: 'choice', choices: IKEVersion, default: 2 },
    mode: { kind: 'choice', choices: IKEMode, blank: true },
    proposals: { kind: 'm2m', to: 'vpn.ikeproposal', through: POLICY_PROPOSALS },
    preshared_key: { kind: 'text', label: 'pre-shared key' },
    comments: comments(),
  },
  filters: {
    proposal_id: proposals('proposal_id', 'id'),
    proposal: proposals('proposal', 'name'),
  },
  hooks: {
    validate({ data }) {
      // NetBox 3.7 IKEPolicy.clean()
      const version = Number(data.version ?? 2);
      if (version === 1 && !data.mode)
        return Promise.resolve({ __all__: ['Mode is required for selected IKE version'] });
      if (version === 2 && data.mode)
        return Promise.resolve({ __all__: ['Mode cannot be used for selected IKE version'] });
      return Promise.resolve(undefined);
    },
  },
  ui: {
    columns: ['name', 'version', 'mode', 'proposals', 'description'],
    clone: ['version', 'mode', 'proposals'],
    groups: [
      { title: 'Policy', fields: ['name', 'description'] },
      { title: 'Parameters', fields: ['version', 'mode', 'proposals', 'preshared_key'] },
    ],
  },
  brief: ['name'],
  ordering: ['name'],
  search: ['name', 'description', 'comments'],
});
