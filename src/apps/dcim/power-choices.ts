/** NetBox 3.4 power feed choice sets (dcim/choices.py), value = label (reference 4 style). */
import { defineChoices } from '../../core/model/choices.js';

export const PowerFeedStatus = defineChoices([
  ['offline', 'Offline'],
  ['active', 'Active'],
  ['planned', 'Planned'],
  ['failed', 'Failed'],
]);

export const PowerFeedType = defineChoices([
  ['primary', 'Primary'],
  ['redundant', 'Redundant'],
]);

export const PowerFeedSupply = defineChoices([
  ['ac', 'AC'],
  ['dc', 'DC'],
]);

export const PowerFeedPhase = defineChoices([
  ['single-phase', 'Single phase'],
  ['three-phase', 'Three-phase'],
]);
