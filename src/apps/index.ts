/**
 * Every app, registered in one place. Adding a model: its *.model.ts file, its migration, and one
 * line in its app's index.ts.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../core/context.js';
import { Registry } from '../core/model/registry.js';
import type { RouteDoc } from '../core/openapi/types.js';
import type { AppModule } from './app-module.js';
import { circuitsApp } from './circuits/index.js';
import { coreApp } from './core/index.js';
import { dcimApp } from './dcim/index.js';
import { extrasApp } from './extras/index.js';
import { ipamApp } from './ipam/index.js';
import { tenancyApp } from './tenancy/index.js';
import { usersApp } from './users/index.js';
import { virtualizationApp } from './virtualization/index.js';
import { vpnApp } from './vpn/index.js';
import { wirelessApp } from './wireless/index.js';

const APPS: Record<string, AppModule> = {
  tenancy: tenancyApp,
  dcim: dcimApp,
  extras: extrasApp,
  circuits: circuitsApp,
  ipam: ipamApp,
  users: usersApp,
  virtualization: virtualizationApp,
  wireless: wirelessApp,
  core: coreApp,
  vpn: vpnApp,
};

export interface SpecialRoutes {
  /** endpoints listed in an app's root besides its models */
  extraEndpoints: Record<string, string[]>;
  routes: Array<(app: FastifyInstance, ctx: AppContext) => void>;
  /** their descriptions for the OpenAPI document */
  docs: RouteDoc[];
}

export function registerAllModels(registry: Registry): SpecialRoutes {
  const special: SpecialRoutes = { extraEndpoints: {}, routes: [], docs: [] };
  for (const [name, mod] of Object.entries(APPS)) {
    registry.register(...mod.models);
    if (mod.extraEndpoints) special.extraEndpoints[name] = mod.extraEndpoints;
    special.routes.push(...(mod.routes ?? []));
    special.docs.push(...(mod.docs ?? []));
  }
  return special;
}

/** A frozen registry of every model, with their special routes: for what runs without an app (start-up, CLI commands). */
export function allModels(): { registry: Registry; special: SpecialRoutes } {
  const registry = new Registry();
  const special = registerAllModels(registry);
  return { registry: registry.freeze(), special };
}
