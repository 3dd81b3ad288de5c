import { defineChoices } from '../../core/model/choices.js';

// NetBox 3.4 CircuitStatusChoices (reference 4)
export const CircuitStatus = defineChoices([
  ['planned', 'Planned'],
  ['provisioning', 'Provisioning'],
  ['active', 'Active'],
  ['offline', 'Offline'],
  ['deprovisioning', 'Deprovisioning'],
  ['decommissioned', 'Decommissioned'],
]);

// NetBox 3.4: the two ends of a circuit; rendered as the bare letter (reference 2, unwrapped choices)
export const TerminationSide = defineChoices([
  ['A', 'A'],
  ['Z', 'Z'],
]);

// NetBox 4.1 CircuitPriorityChoices: a circuit group member's priority
export const CircuitPriority = defineChoices([
  ['primary', 'Primary'],
  ['secondary', 'Secondary'],
  ['tertiary', 'Tertiary'],
  ['inactive', 'Inactive'],
]);

// NetBox 4.2 VirtualCircuitTerminationRoleChoices
export const VirtualCircuitTerminationRole = defineChoices([
  ['peer', 'Peer'],
  ['hub', 'Hub'],
  ['spoke', 'Spoke'],
]);
