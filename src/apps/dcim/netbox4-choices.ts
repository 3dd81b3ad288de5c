/**
 * Choice sets of fields NetBox 4.1-4.4 added to dcim models (values and labels as NetBox 4.4's
 * dcim/choices.py has them). Those fields are shown in the 4.4 dialect only.
 */
import { defineChoices } from '../../core/model/choices.js';

/** NetBox 4.1: a rack's airflow */
export const RackAirflow = defineChoices([
  ['front-to-rear', 'Front to rear'],
  ['rear-to-front', 'Rear to front'],
]);

/** NetBox 4.4: a rack reservation's status */
export const RackReservationStatus = defineChoices([
  ['pending', 'Pending'],
  ['active', 'Active'],
  ['stale', 'Stale'],
]);

/** NetBox 4.3: a power outlet's status */
export const PowerOutletStatus = defineChoices([
  ['enabled', 'Enabled'],
  ['disabled', 'Disabled'],
  ['faulty', 'Faulty'],
]);

/** NetBox 4.2: an inventory item's status */
export const InventoryItemStatus = defineChoices([
  ['offline', 'Offline'],
  ['active', 'Active'],
  ['planned', 'Planned'],
  ['staged', 'Staged'],
  ['failed', 'Failed'],
  ['decommissioning', 'Decommissioning'],
]);

/** NetBox 4.1: a module type's airflow */
export const ModuleAirflow = defineChoices([
  ['front-to-rear', 'Front to rear'],
  ['rear-to-front', 'Rear to front'],
  ['left-to-right', 'Left to right'],
  ['right-to-left', 'Right to left'],
  ['side-to-rear', 'Side to rear'],
  ['passive', 'Passive'],
]);
