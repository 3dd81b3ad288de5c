import type { AppModule } from '../app-module.js';
import { wirelessLanGroup } from './wireless-lan-group.model.js';
import { wirelessLan } from './wireless-lan.model.js';
import { wirelessLink } from './wireless-link.model.js';

export const wirelessApp: AppModule = {
  models: [wirelessLanGroup, wirelessLan, wirelessLink],
};
