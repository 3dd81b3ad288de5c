/**
 * The contract table (NetBox's APIViewTestCase idea): one row per registered model, and one generic
 * suite (test/contract/*.test.ts) runs against every row. coverage.test.ts fails when a model in
 * the registry has no row here, so a new model cannot skip the suite: add its row to models-<app>.ts
 * (circuits and contacts live in models-circuits.ts; the models NetBox 4 added, served in the 4.4
 * dialect only, in models-netbox4.ts).
 *
 * Expected values (brief fields, paths) are written from the NetBox 3.4 reference, not read from
 * the model declarations, so the suite checks the declarations instead of echoing them.
 */
import { CIRCUITS_CONTRACT } from './models-circuits.js';
import { CORE_CONTRACT } from './models-core.js';
import { DCIM_CONTRACT } from './models-dcim.js';
import { DCIM_POWER_CONTRACT } from './models-dcim-power.js';
import { DCIM_COMPONENTS_CONTRACT } from './models-dcim-components.js';
import { DCIM_TEMPLATE_CONTRACT } from './models-dcim-templates.js';
import { IPAM_CONTRACT } from './models-ipam.js';
import { IPAM_CATALOGUE_CONTRACT, SMALL_CATALOGUE_CONTRACT, WIRELESS_CONTRACT } from './models-catalogue.js';
import { DCIM_SITES_CONTRACT } from './models-dcim-sites.js';
import { EXTRAS_CONTRACT } from './models-extras.js';
import { TENANCY_CONTRACT } from './models-tenancy.js';
import { USERS_CONTRACT } from './models-users.js';
import { VIRTUALIZATION_CONTRACT } from './models-virtualization.js';
import { VPN_CONTRACT } from './models-vpn.js';
import { USERDATA_CONTRACT } from './models-extras-userdata.js';
import { EXTRAS_IMAGES_CONTRACT } from './models-extras-images.js';
import { EXTRAS_TEMPLATES_CONTRACT } from './models-extras-templates.js';
import { NETBOX4_CONTRACT } from './models-netbox4.js';
import { NETBOX4_MAC_CONTRACT } from './models-netbox4-mac.js';

export { type ContractCase, type Json, resolve } from './contract-case.js';

export const CONTRACT = [
  ...TENANCY_CONTRACT,
  ...DCIM_SITES_CONTRACT,
  ...EXTRAS_CONTRACT,
  ...USERS_CONTRACT,
  ...CIRCUITS_CONTRACT,
  ...IPAM_CONTRACT,
  ...IPAM_CATALOGUE_CONTRACT,
  ...SMALL_CATALOGUE_CONTRACT,
  ...WIRELESS_CONTRACT,
  ...DCIM_CONTRACT,
  ...DCIM_COMPONENTS_CONTRACT,
  ...DCIM_POWER_CONTRACT,
  ...DCIM_TEMPLATE_CONTRACT,
  ...VIRTUALIZATION_CONTRACT,
  ...VPN_CONTRACT,
  ...CORE_CONTRACT,
  ...USERDATA_CONTRACT,
  ...EXTRAS_IMAGES_CONTRACT,
  ...EXTRAS_TEMPLATES_CONTRACT,
  ...NETBOX4_CONTRACT,
  ...NETBOX4_MAC_CONTRACT,
];

// a row of a model only NetBox 4 has is asked in 4.4 by the harness (ContractCase.dialect)
export const WRITABLE = CONTRACT.filter((c) => !c.readOnly);
export const READ_ONLY = CONTRACT.filter((c) => c.readOnly);
