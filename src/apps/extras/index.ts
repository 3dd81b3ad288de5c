import type { AppModule } from '../app-module.js';
import { configContext } from './config-context.model.js';
import { contentType } from './content-type.model.js';
import { eventRule } from './event-rule.model.js';
import { customField } from './custom-field.model.js';
import { imageAttachment } from './image-attachment.model.js';
import { journalEntry } from './journal-entry.model.js';
import { registerMediaRoutes } from './media.routes.js';
import { objectChange } from './object-change.model.js';
import { tag } from './tag.model.js';
import { webhook } from './webhook.model.js';

export const extrasApp: AppModule = {
  models: [tag, customField, contentType, objectChange, journalEntry, imageAttachment, configContext, webhook, eventRule],
  routes: [registerMediaRoutes],
};
