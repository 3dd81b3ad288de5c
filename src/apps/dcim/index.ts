import type { AppModule } from '../app-module.js';
import { cableTermination } from './cable-termination.model.js';
import { cable } from './cable.model.js';
import { deviceRole } from './device-role.model.js';
import { deviceType } from './device-type.model.js';
import { device } from './device.model.js';
import { iface } from './interface.model.js';
import { macAddress } from './mac-address.model.js';
import { location } from './location.model.js';
import { manufacturer } from './manufacturer.model.js';
import { platform } from './platform.model.js';
import { pathRouteDocs, registerPathRoutes } from './paths/path.routes.js';
import { powerFeed } from './power-feed.model.js';
import { powerPanel } from './power-panel.model.js';
import { rackReservation } from './rack-reservation.model.js';
import { rackRole } from './rack-role.model.js';
import { rack } from './rack.model.js';
import { rackType } from './rack-type.model.js';
import { region } from './region.model.js';
import { siteGroup } from './site-group.model.js';
import { site } from './site.model.js';
import { virtualChassis } from './virtual-chassis.model.js';
import { virtualDeviceContext } from './virtual-device-context.model.js';
import { consolePort } from './components/console-port.model.js';
import { consoleServerPort } from './components/console-server-port.model.js';
import { deviceBay } from './components/device-bay.model.js';
import { frontPort } from './components/front-port.model.js';
import { inventoryItemRole } from './components/inventory-item-role.model.js';
import { inventoryItem } from './components/inventory-item.model.js';
import { moduleBay } from './components/module-bay.model.js';
import { powerOutlet } from './components/power-outlet.model.js';
import { powerPort } from './components/power-port.model.js';
import { rearPort } from './components/rear-port.model.js';
import { moduleType } from './module-type.model.js';
import { moduleTypeProfile } from './module-type-profile.model.js';
import { moduleModel } from './module.model.js';
import { TEMPLATE_MODELS } from './templates/index.js';
import { ELEVATION_DOCS, registerElevationRoute } from './elevation/elevation.routes.js';
import { registerTypeLibraryRoutes } from './type-library/yaml-routes.js';

export const dcimApp: AppModule = {
  models: [
    region,
    siteGroup,
    site,
    location,
    rackRole,
    rackType,
    rack,
    rackReservation,
    manufacturer,
    deviceType,
    deviceRole,
    platform,
    virtualChassis,
    device,
    virtualDeviceContext,
    iface,
    macAddress,
    cable,
    cableTermination,
    consolePort,
    consoleServerPort,
    powerPort,
    powerOutlet,
    rearPort,
    frontPort,
    moduleBay,
    deviceBay,
    inventoryItemRole,
    inventoryItem,
    moduleTypeProfile,
    moduleType,
    moduleModel,
    ...TEMPLATE_MODELS,
    powerPanel,
    powerFeed,
  ],
  // the path routes (paths/path.routes.ts): trace, paths, connected-device; the rack elevation
  extraEndpoints: ['connected-device'],
  // and device-type library YAML on the device and module type lists (type-library/)
  routes: [registerPathRoutes, registerElevationRoute, registerTypeLibraryRoutes],
  get docs() {
    return [...pathRouteDocs(this.models), ...ELEVATION_DOCS];
  },
};
