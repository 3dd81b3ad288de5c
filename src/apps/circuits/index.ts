import type { AppModule } from '../app-module.js';
import { circuitTermination } from './circuit-termination.model.js';
import { circuitType } from './circuit-type.model.js';
import { circuit } from './circuit.model.js';
import { providerAccount } from './provider-account.model.js';
import { providerNetwork } from './provider-network.model.js';
import { provider } from './provider.model.js';

export const circuitsApp: AppModule = {
  models: [provider, providerAccount, providerNetwork, circuitType, circuit, circuitTermination],
};
