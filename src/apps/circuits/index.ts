import type { AppModule } from '../app-module.js';
import { circuitGroupAssignment } from './circuit-group-assignment.model.js';
import { circuitGroup } from './circuit-group.model.js';
import { circuitTermination } from './circuit-termination.model.js';
import { circuitType } from './circuit-type.model.js';
import { circuit } from './circuit.model.js';
import { providerAccount } from './provider-account.model.js';
import { providerNetwork } from './provider-network.model.js';
import { provider } from './provider.model.js';
import { virtualCircuitTermination } from './virtual-circuit-termination.model.js';
import { virtualCircuitType } from './virtual-circuit-type.model.js';
import { virtualCircuit } from './virtual-circuit.model.js';

export const circuitsApp: AppModule = {
  models: [
    provider,
    providerAccount,
    providerNetwork,
    circuitType,
    circuit,
    circuitTermination,
    // NetBox 4.1-4.2, served in the 4.4 dialect only
    circuitGroup,
    circuitGroupAssignment,
    virtualCircuitType,
    virtualCircuit,
    virtualCircuitTermination,
  ],
};
