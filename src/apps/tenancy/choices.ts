import { defineChoices } from '../../core/model/choices.js';

// NetBox 3.4 ContactPriorityChoices (tenancy/choices.py)
export const ContactPriority = defineChoices([
  ['primary', 'Primary'],
  ['secondary', 'Secondary'],
  ['tertiary', 'Tertiary'],
  ['inactive', 'Inactive'],
]);
