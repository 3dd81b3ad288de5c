import type { AppModule } from '../app-module.js';
import { configContext } from './config-context.model.js';
import { configTemplate } from './config-template.model.js';
import { customLink } from './custom-link.model.js';
import { exportTemplate } from './export-template.model.js';
import { contentType } from './content-type.model.js';
import { eventRule } from './event-rule.model.js';
import { customField } from './custom-field.model.js';
import { DASHBOARD_DOCS, registerDashboardRoutes } from './dashboard.routes.js';
import { CHOICE_SET_DOCS, registerChoiceSetRoutes } from './custom-field-choice-set.routes.js';
import { customFieldChoiceSet } from './custom-field-choice-set.model.js';
import { bookmark } from './bookmark.model.js';
import { savedFilter } from './saved-filter.model.js';
import { imageAttachment } from './image-attachment.model.js';
import { journalEntry } from './journal-entry.model.js';
import { registerMediaRoutes } from './media.routes.js';
import { objectChange } from './object-change.model.js';
import { registerScriptRoutes, SCRIPT_DOCS, SCRIPT_ENDPOINTS } from './scripts-reports.routes.js';
import { registerSyncRoutes, syncRouteDocs } from '../core/synced-data.js';
import { tag } from './tag.model.js';
import { configContextProfile } from './config-context-profile.model.js';
import { notificationGroup } from './notification-group.model.js';
import { notification, subscription } from './notification.model.js';
import { tableConfig } from './table-config.model.js';
import { taggedItem } from './tagged-item.model.js';
import { webhook } from './webhook.model.js';
import { registerRenderConfigRoutes, renderConfigDocs } from './render-config.routes.js';

const models = [
  tag,
  customFieldChoiceSet,
  customField,
  contentType,
  objectChange,
  journalEntry,
  imageAttachment,
  configContext,
  webhook,
  eventRule,
  customLink,
  exportTemplate,
  configTemplate,
  savedFilter,
  bookmark,
  // NetBox 4.1-4.4, served in the 4.4 dialect only
  configContextProfile,
  tableConfig,
  taggedItem,
  notificationGroup,
  notification,
  subscription,
];

export const extrasApp: AppModule = {
  models,
  // NetBox 3.7's reports and scripts: empty, as this service runs no user Python modules
  extraEndpoints: SCRIPT_ENDPOINTS,
  // render-config of devices and virtual machines, render of config templates; sync of synced data
  routes: [
    registerScriptRoutes,
    registerDashboardRoutes,
    registerChoiceSetRoutes,
    registerMediaRoutes,
    registerSyncRoutes,
    registerRenderConfigRoutes,
  ],
  docs: [...SCRIPT_DOCS, ...DASHBOARD_DOCS, ...CHOICE_SET_DOCS, ...syncRouteDocs(models), ...renderConfigDocs()],
};
