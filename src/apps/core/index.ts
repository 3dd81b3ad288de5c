import { BACKUP_DOC } from '../../backup/backup.routes.js';
import type { AppModule } from '../app-module.js';
import { BACKGROUND_TASK_DOCS, CORE_ENDPOINTS, registerBackgroundTaskRoutes } from './background-tasks.routes.js';
import { dataFile } from './data-file.model.js';
import { DATA_SOURCE_DOCS, registerDataSourceRoutes } from './data-source.routes.js';
import { dataSource } from './data-source.model.js';
import { job } from './job.model.js';
import { objectType } from './object-type.model.js';

/**
 * NetBox 3.7's core app (data sources, data files, jobs) and NetBox 4's background-task views
 * over the webhook deliveries. Its root is the generic app root (http/root.routes.ts): the models
 * and the background-* endpoints, which stay for staff only.
 */
export const coreApp: AppModule = {
  // object types: NetBox 4.4, served in the 4.4 dialect only
  models: [dataSource, dataFile, job, objectType],
  extraEndpoints: CORE_ENDPOINTS,
  routes: [registerBackgroundTaskRoutes, registerDataSourceRoutes],
  docs: [...BACKGROUND_TASK_DOCS, ...DATA_SOURCE_DOCS, BACKUP_DOC],
};
