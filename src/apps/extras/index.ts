import type { AppModule } from '../app-module.js';
import { configContext } from './config-context.model.js';
import { contentType } from './content-type.model.js';
import { eventRule } from './event-rule.model.js';
import { customField } from './custom-field.model.js';
import { DASHBOARD_DOCS, registerDashboardRoutes } from './dashboard.routes.js';
import { CHOICE_SET_DOCS, registerChoiceSetRoutes } from './custom-field-choice-set.routes.js';
import { customFieldChoiceSet } from './custom-field-choice-set.model.js';
import { bookmark } from './bookmark.model.js';
import { savedFilter } from './saved-filter.model.js';
import { journalEntry } from './journal-entry.model.js';
import { objectChange } from './object-change.model.js';
import { tag } from './tag.model.js';
import { webhook } from './webhook.model.js';

export const extrasApp: AppModule = {
  models: [tag, customFieldChoiceSet, customField, contentType, objectChange, journalEntry, configContext, webhook, eventRule, savedFilter, bookmark],
  routes: [registerDashboardRoutes, registerChoiceSetRoutes],
  docs: [...DASHBOARD_DOCS, ...CHOICE_SET_DOCS],
};
