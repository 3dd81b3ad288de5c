import type { AppModule } from '../app-module.js';
import { tenantGroup } from './tenant-group.model.js';
import { tenant } from './tenant.model.js';

export const tenancyApp: AppModule = {
  models: [tenantGroup, tenant],
};
