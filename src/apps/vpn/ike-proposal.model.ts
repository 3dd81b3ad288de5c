/** IKE proposals (NetBox 3.7 vpn.IKEProposal): the phase 1 parameters an IKE policy offers. */
import { sql } from 'kysely';
import { defineModel } from '../../core/model/define-model.js';
import { comments, description, name } from '../fields.js';
import { AuthenticationAlgorithm, AuthenticationMethod, DHGroup, EncryptionAlgorithm } from './choices.js';
import { POLICY_PROPOSALS } from './ike-policy.model.js';
import { idSetFilter } from '../../core/query/id-set-filter.js';

// NetBox 3.7 ModelMultipleChoiceFilter on ike_policies: an unknown policy is a 400, `__n` excludes
const policies = (param: string, byId: boolean) =>
  idSetFilter({
    param,
    target: 'vpn.ikepolicy',
    byId,
    match: (ids) =>
      sql`t.id in (select j.ikeproposal_id from ${sql.table(POLICY_PROPOSALS.table)} j where j.ikepolicy_id in ${ids})`,
  });

export const ikeProposal = defineModel({
  name: 'vpn.ikeproposal',
  path: 'ike-proposals',
  verboseName: 'IKE proposal',
  schemaName: 'IKEProposal',
  fields: {
    name: name(100, { unique: true }),
    description: description(),
    authentication_method: { kind: 'choice', choices: AuthenticationMethod, required: true },
    encryption_algorithm: { kind: 'choice', choices: EncryptionAlgorithm, required: true },
    authentication_algorithm: { kind: 'choice', choices: AuthenticationAlgorithm, blank: true },
    group: { kind: 'choice', choices: DHGroup, required: true, label: 'group', help: 'Diffie-Hellman group ID' },
    sa_lifetime: {
      kind: 'integer',
      nullable: true,
      min: 0,
      max: 2147483647,
      label: 'SA lifetime',
      help: 'Security association lifetime (in seconds)',
    },
    comments: comments(),
  },
  filters: {
    // the policies offering the proposal
    ike_policy_id: policies('ike_policy_id', true),
    ike_policy: policies('ike_policy', false),
  },
  ui: {
    columns: [
      'name',
      'authentication_method',
      'encryption_algorithm',
      'authentication_algorithm',
      'group',
      'sa_lifetime',
      'description',
    ],
    clone: ['authentication_method', 'encryption_algorithm', 'authentication_algorithm', 'group', 'sa_lifetime'],
    groups: [
      { title: 'Proposal', fields: ['name', 'description'] },
      {
        title: 'Parameters',
        fields: ['authentication_method', 'encryption_algorithm', 'authentication_algorithm', 'group', 'sa_lifetime'],
      },
    ],
  },
  brief: ['name'],
  ordering: ['name'],
  search: ['name', 'description', 'comments'],
});
