import type { AppModule } from '../app-module.js';
import { BACKGROUND_TASK_DOCS, registerBackgroundTaskRoutes } from './background-tasks.routes.js';

/** NetBox 4's core app, here only its background-task views (webhook deliveries). */
export const coreApp: AppModule = {
  models: [],
  routes: [registerBackgroundTaskRoutes],
  docs: BACKGROUND_TASK_DOCS,
};
