/**
 * IPSec proposals (NetBox 3.7 vpn.IPSecProposal): phase 2 parameters; an encryption or an
 * authentication algorithm (or both) is required.
 */
import { defineModel } from '../../core/model/define-model.js';
import { comments, description, name } from '../fields.js';
import { AuthenticationAlgorithm, EncryptionAlgorithm } from './choices.js';

export const ipsecProposal = defineModel({
  name: 'vpn.ipsecproposal',
  path: 'ipsec-proposals',
  verboseName: 'IPSec proposal',
  schemaName: 'IPSecProposal',
  fields: {
    name: name(100, { unique: true }),
    description: description(),
    encryption_algorithm: { kind: 'choice', choices: EncryptionAlgorithm, blank: true },
    authentication_algorithm: { kind: 'choice', choices: AuthenticationAlgorithm, blank: true },
    sa_lifetime_seconds: { kind: 'integer', nullable: true, min: 0, max: 2147483647, label: 'SA lifetime (seconds)' },
    sa_lifetime_data: { kind: 'integer', nullable: true, min: 0, max: 2147483647, label: 'SA lifetime (KB)' },
    comments: comments(),
  },
  hooks: {
    validate({ data }) {
      // NetBox 3.7 IPSecProposal.clean()
      if (!data.encryption_algorithm && !data.authentication_algorithm) {
        return Promise.resolve({ __all__: ['Encryption and/or authentication algorithm must be defined'] });
      }
      return Promise.resolve(undefined);
    },
  },
  ui: {
    columns: [
      'name',
      'encryption_algorithm',
      'authentication_algorithm',
      'sa_lifetime_seconds',
      'sa_lifetime_data',
      'description',
    ],
    clone: ['encryption_algorithm', 'authentication_algorithm', 'sa_lifetime_seconds', 'sa_lifetime_data'],
    groups: [
      { title: 'Proposal', fields: ['name', 'description'] },
      {
        title: 'Parameters',
        fields: ['encryption_algorithm', 'authentication_algorithm', 'sa_lifetime_seconds', 'sa_lifetime_data'],
      },
    ],
  },
  brief: ['name'],
  ordering: ['name'],
  search: ['name', 'description', 'comments'],
});
