/** IKE proposals (NetBox 3.7 vpn.IKEProposal): the phase 1 parameters an IKE policy offers. */
import { defineModel } from '../../core/model/define-model.js';
import { comments, description, name } from '../fields.js';
import { AuthenticationAlgorithm, AuthenticationMethod, DHGroup, EncryptionAlgorithm } from './choices.js';
import { POLICY_PROPOSALS } from './ike-policy.model.js';
import { memberFilter } from './filters.js';

const policies = (param: string, column: 'id' | 'name') =>
  memberFilter(param, { table: POLICY_PROPOSALS.table, own: POLICY_PROPOSALS.to, other: POLICY_PROPOSALS.from, memberTable: 'vpn_ikepolicy', column });

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
    sa_lifetime: { kind: 'integer', nullable: true, min: 0, max: 2147483647, label: 'SA lifetime', help: 'Security association lifetime (in seconds)' },
    comments: comments(),
  },
  filters: {
    // NetBox 3.7: the policies offering the proposal (ModelMultipleChoiceFilter: exact and __n)
    ike_policy_id: { ...policies('ike_policy_id', 'id'), lookups: ['n'] },
    ike_policy: { ...policies('ike_policy', 'name'), lookups: ['n'] },
  },
  brief: ['name'],
  ordering: ['name'],
  search: ['name', 'description', 'comments'],
});
