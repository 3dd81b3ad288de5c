/** IPSec policies (NetBox 3.7 vpn.IPSecPolicy): the proposals offered and a PFS group. */
import { defineModel } from '../../core/model/define-model.js';
import { comments, description, name } from '../fields.js';
import { DHGroup } from './choices.js';
import { memberFilter } from './filters.js';

const PROPOSALS = { table: 'vpn_ipsecpolicy_proposals', from: 'ipsecpolicy_id', to: 'ipsecproposal_id' };
const proposals = (param: string, column: 'id' | 'name') =>
  memberFilter(param, {
    table: PROPOSALS.table,
    own: PROPOSALS.from,
    other: PROPOSALS.to,
    memberTable: 'vpn_ipsecproposal',
    column,
  });

export const ipsecPolicy = defineModel({
  name: 'vpn.ipsecpolicy',
  path: 'ipsec-policies',
  verboseName: 'IPSec policy',
  verboseNamePlural: 'IPSec policies',
  schemaName: 'IPSecPolicy',
  fields: {
    name: name(100, { unique: true }),
    description: description(),
    proposals: { kind: 'm2m', to: 'vpn.ipsecproposal', through: PROPOSALS },
    pfs_group: {
      kind: 'choice',
      choices: DHGroup,
      nullable: true,
      label: 'PFS group',
      help: 'Diffie-Hellman group for Perfect Forward Secrecy',
    },
    comments: comments(),
  },
  filters: {
    proposal_id: proposals('proposal_id', 'id'),
    proposal: proposals('proposal', 'name'),
  },
  ui: {
    columns: ['name', 'proposals', 'pfs_group', 'description'],
    clone: ['proposals', 'pfs_group'],
    groups: [
      { title: 'Policy', fields: ['name', 'description'] },
      { title: 'Parameters', fields: ['proposals', 'pfs_group'] },
    ],
  },
  brief: ['name'],
  ordering: ['name'],
  search: ['name', 'description', 'comments'],
});
