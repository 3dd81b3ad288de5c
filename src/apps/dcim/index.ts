import type { AppModule } from '../app-module.js';
import { region } from './region.model.js';
import { siteGroup } from './site-group.model.js';
import { site } from './site.model.js';

export const dcimApp: AppModule = {
  models: [region, siteGroup, site],
};
