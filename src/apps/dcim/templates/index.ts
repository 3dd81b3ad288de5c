/** The component template models, in NetBox's order (console, power, interfaces, ports, bays, inventory). */
import { consolePortTemplate } from './console-port-template.model.js';
import { consoleServerPortTemplate } from './console-server-port-template.model.js';
import { deviceBayTemplate } from './device-bay-template.model.js';
import { frontPortTemplate } from './front-port-template.model.js';
import { interfaceTemplate } from './interface-template.model.js';
import { inventoryItemTemplate } from './inventory-item-template.model.js';
import { moduleBayTemplate } from './module-bay-template.model.js';
import { powerOutletTemplate } from './power-outlet-template.model.js';
import { powerPortTemplate } from './power-port-template.model.js';
import { rearPortTemplate } from './rear-port-template.model.js';

export const TEMPLATE_MODELS = [
  consolePortTemplate,
  consoleServerPortTemplate,
  powerPortTemplate,
  powerOutletTemplate,
  interfaceTemplate,
  rearPortTemplate,
  frontPortTemplate,
  moduleBayTemplate,
  deviceBayTemplate,
  inventoryItemTemplate,
];
