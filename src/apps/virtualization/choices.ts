import { defineChoices } from '../../core/model/choices.js';

// NetBox 3.4 ClusterStatusChoices (reference 4)
export const ClusterStatus = defineChoices([
  ['planned', 'Planned'],
  ['staging', 'Staging'],
  ['active', 'Active'],
  ['decommissioning', 'Decommissioning'],
  ['offline', 'Offline'],
]);

// NetBox 3.4 VirtualMachineStatusChoices (reference 4)
export const VirtualMachineStatus = defineChoices([
  ['offline', 'Offline'],
  ['active', 'Active'],
  ['planned', 'Planned'],
  ['staged', 'Staged'],
  ['failed', 'Failed'],
  ['decommissioning', 'Decommissioning'],
]);
