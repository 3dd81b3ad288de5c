/** Choice sets of fields NetBox 4.3 added to vpn models (shown in the 4.4 dialect only). */
import { defineChoices } from '../../core/model/choices.js';

/** NetBox 4.3: an L2VPN's status */
export const L2VPNStatus = defineChoices([
  ['active', 'Active'],
  ['planned', 'Planned'],
  ['decommissioning', 'Decommissioning'],
]);
