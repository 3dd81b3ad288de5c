/**
 * Every app's declarations, registered in one place. Adding a model: its *.model.ts file, its
 * migration, and one line here.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../core/context.js';
import type { Registry } from '../core/model/registry.js';
import { region } from './dcim/region.model.js';
import { siteGroup } from './dcim/site-group.model.js';
import { site } from './dcim/site.model.js';
import { contentType } from './extras/content-type.model.js';
import { customField } from './extras/custom-field.model.js';
import { objectChange } from './extras/object-change.model.js';
import { tag } from './extras/tag.model.js';
import { tenantGroup } from './tenancy/tenant-group.model.js';
import { tenant } from './tenancy/tenant.model.js';
import { group } from './users/group.model.js';
import { objectPermission } from './users/object-permission.model.js';
import { registerUserRoutes } from './users/routes.js';
import { token } from './users/token.model.js';
import { user } from './users/user.model.js';

export interface SpecialRoutes {
  /** endpoints listed in an app's root besides its models */
  extraEndpoints: Record<string, string[]>;
  routes: Array<(app: FastifyInstance, ctx: AppContext) => void>;
}

export function registerAllModels(registry: Registry): SpecialRoutes {
  registry.register(tenantGroup, tenant);
  registry.register(region, siteGroup, site);
  registry.register(tag, customField, contentType, objectChange);
  registry.register(user, group, token, objectPermission);
  return {
    extraEndpoints: { users: ['config'] },
    routes: [registerUserRoutes],
  };
}
