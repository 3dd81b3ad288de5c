import type { AppModule } from '../app-module.js';
import { configContext } from './config-context.model.js';
import { contentType } from './content-type.model.js';
import { eventRule } from './event-rule.model.js';
import { customField } from './custom-field.model.js';
import { journalEntry } from './journal-entry.model.js';
import { objectChange } from './object-change.model.js';
import { registerScriptRoutes, SCRIPT_DOCS, SCRIPT_ENDPOINTS } from './scripts-reports.routes.js';
import { tag } from './tag.model.js';
import { webhook } from './webhook.model.js';

export const extrasApp: AppModule = {
  models: [tag, customField, contentType, objectChange, journalEntry, configContext, webhook, eventRule],
  // NetBox 3.7's reports and scripts: empty, as this service runs no user Python modules
  extraEndpoints: SCRIPT_ENDPOINTS,
  routes: [registerScriptRoutes],
  docs: SCRIPT_DOCS,
};
