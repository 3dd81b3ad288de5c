import type { AppModule } from '../app-module.js';
import { ikePolicy } from './ike-policy.model.js';
import { ikeProposal } from './ike-proposal.model.js';
import { ipsecPolicy } from './ipsec-policy.model.js';
import { ipsecProfile } from './ipsec-profile.model.js';
import { ipsecProposal } from './ipsec-proposal.model.js';
import { l2vpnTermination } from './l2vpn-termination.model.js';
import { l2vpn } from './l2vpn.model.js';
import { tunnelGroup } from './tunnel-group.model.js';
import { tunnelTermination } from './tunnel-termination.model.js';
import { tunnel } from './tunnel.model.js';

/** NetBox 3.7's vpn app; L2VPNs are also served under ipam, where NetBox 3.4 has them (README.md). */
export const vpnApp: AppModule = {
  models: [
    tunnelGroup,
    tunnel,
    tunnelTermination,
    ikeProposal,
    ikePolicy,
    ipsecProposal,
    ipsecPolicy,
    ipsecProfile,
    l2vpn,
    l2vpnTermination,
  ],
};
