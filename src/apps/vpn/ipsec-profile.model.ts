/** IPSec profiles (NetBox 3.7 vpn.IPSecProfile): a mode with an IKE policy and an IPSec policy. */
import { defineModel } from '../../core/model/define-model.js';
import { comments, description, fk, name } from '../fields.js';
import { IPSecMode } from './choices.js';

export const ipsecProfile = defineModel({
  name: 'vpn.ipsecprofile',
  path: 'ipsec-profiles',
  verboseName: 'IPSec profile',
  schemaName: 'IPSecProfile',
  fields: {
    name: name(100, { unique: true }),
    description: description(),
    mode: { kind: 'choice', choices: IPSecMode, required: true },
    ike_policy: fk('vpn.ikepolicy', { required: true, nullable: false, onDelete: 'protect', label: 'IKE policy' }),
    ipsec_policy: fk('vpn.ipsecpolicy', {
      required: true,
      nullable: false,
      onDelete: 'protect',
      label: 'IPSec policy',
    }),
    comments: comments(),
  },
  ui: {
    columns: ['name', 'mode', 'ike_policy', 'ipsec_policy', 'description'],
    clone: ['mode', 'ike_policy', 'ipsec_policy'],
    groups: [
      { title: 'Profile', fields: ['name', 'description'] },
      { title: 'Parameters', fields: ['mode', 'ike_policy', 'ipsec_policy'] },
    ],
  },
  brief: ['name'],
  ordering: ['name'],
  search: ['name', 'description', 'comments'],
});
