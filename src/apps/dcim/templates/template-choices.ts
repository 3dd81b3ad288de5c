/** Choice sets only the templates bring (NetBox dcim/choices.py and wireless/choices.py). */
import { defineChoices } from '../../../core/model/choices.js';

/** NetBox 3.7 WirelessRoleChoices (interface and interface template `rf_role`) */
export const WirelessRole = defineChoices([
  ['ap', 'Access point'],
  ['station', 'Station'],
]);
