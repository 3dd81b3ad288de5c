import { defineChoices } from '../../core/model/choices.js';

export const SiteStatus = defineChoices([
  ['planned', 'Planned'],
  ['staging', 'Staging'],
  ['active', 'Active'],
  ['decommissioning', 'Decommissioning'],
  ['retired', 'Retired'],
]);
