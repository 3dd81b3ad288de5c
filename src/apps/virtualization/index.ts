import type { AppModule } from '../app-module.js';
import { clusterGroup } from './cluster-group.model.js';
import { clusterType } from './cluster-type.model.js';
import { cluster } from './cluster.model.js';
import { virtualDisk } from './virtual-disk.model.js';
import { virtualMachine } from './virtual-machine.model.js';
import { vmInterface } from './vm-interface.model.js';

export const virtualizationApp: AppModule = {
  models: [clusterType, clusterGroup, cluster, virtualMachine, vmInterface, virtualDisk],
};
