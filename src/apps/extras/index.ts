import type { AppModule } from '../app-module.js';
import { configContext } from './config-context.model.js';
import { configTemplate } from './config-template.model.js';
import { customLink } from './custom-link.model.js';
import { exportTemplate } from './export-template.model.js';
import { contentType } from './content-type.model.js';
import { eventRule } from './event-rule.model.js';
import { customField } from './custom-field.model.js';
import { journalEntry } from './journal-entry.model.js';
import { objectChange } from './object-change.model.js';
import { tag } from './tag.model.js';
import { webhook } from './webhook.model.js';
import { registerRenderConfigRoutes, renderConfigDocs } from './render-config.routes.js';

export const extrasApp: AppModule = {
  models: [tag, customField, contentType, objectChange, journalEntry, configContext, webhook, eventRule, customLink, exportTemplate, configTemplate],
  // render-config of devices and virtual machines, render of config templates
  routes: [registerRenderConfigRoutes],
  docs: renderConfigDocs(),
};
