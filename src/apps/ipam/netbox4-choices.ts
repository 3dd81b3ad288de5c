/** Choice sets of fields NetBox 4.2 added to ipam models (shown in the 4.4 dialect only). */
import { defineChoices } from '../../core/model/choices.js';

/** NetBox 4.2 (#9102): a VLAN's part in Q-in-Q (IEEE 802.1ad) */
export const VlanQinQRole = defineChoices([
  ['svlan', 'Service'],
  ['cvlan', 'Customer'],
]);
