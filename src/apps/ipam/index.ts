import type { AppModule } from '../app-module.js';
import { aggregate } from './aggregate.model.js';
import { asn } from './asn.model.js';
import { asnRange } from './asn-range.model.js';
import { fhrpGroupAssignment } from './fhrp-group-assignment.model.js';
import { fhrpGroup } from './fhrp-group.model.js';
import { ipAddress } from './ip-address.model.js';
import { ipRange } from './ip-range.model.js';
import { prefix } from './prefix.model.js';
import { rir } from './rir.model.js';
import { role } from './role.model.js';
import { routeTarget } from './route-target.model.js';
import { serviceTemplate } from './service-template.model.js';
import { service } from './service.model.js';
import { allocationDocs, registerAllocationRoutes } from './allocation.routes.js';
import { vlanGroup } from './vlan-group.model.js';
import { vlanTranslationPolicy } from './vlan-translation-policy.model.js';
import { vlanTranslationRule } from './vlan-translation-rule.model.js';
import { vlan } from './vlan.model.js';
import { vrf } from './vrf.model.js';

export const ipamApp: AppModule = {
  models: [
    vrf,
    routeTarget,
    rir,
    aggregate,
    asnRange,
    asn,
    role,
    prefix,
    ipRange,
    ipAddress,
    vlanGroup,
    vlan,
    // NetBox 4.2, served in the 4.4 dialect only
    vlanTranslationPolicy,
    vlanTranslationRule,
    serviceTemplate,
    service,
    fhrpGroup,
    fhrpGroupAssignment,
  ],
  routes: [registerAllocationRoutes],
  docs: allocationDocs(),
};
