/** NetBox 3.4 ModuleStatusChoices: the device statuses without `inventory`. */
import { defineChoices } from '../../core/model/choices.js';

export const ModuleStatus = defineChoices([
  ['offline', 'Offline'],
  ['active', 'Active'],
  ['planned', 'Planned'],
  ['staged', 'Staged'],
  ['failed', 'Failed'],
  ['decommissioning', 'Decommissioning'],
]);
