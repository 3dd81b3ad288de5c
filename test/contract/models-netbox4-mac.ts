/**
 * Contract rows of models NetBox 4 added that only the 4.4 dialect serves (ContractCase.dialect):
 * MAC address objects (NetBox 4.2). Their brief fields are NetBox 4.4's (MACAddressSerializer).
 */
import { type ContractCase, created } from './contract-case.js';
import { deviceOf } from './models-dcim.js';
import { uniq } from '../factories/index.js';

/** a MAC address no other call gives (locally administered, from a counter) */
let next = 0;
const mac = () => {
  next += 1;
  const hex = (next + (process.pid % 4096) * 65536).toString(16).padStart(8, '0').toUpperCase();
  return `02:00:${hex.match(/../g)!.join(':')}`;
};

export const NETBOX4_MAC_CONTRACT: ContractCase[] = [
  {
    model: 'dcim.macaddress',
    path: '/api/dcim/mac-addresses/',
    dialect: '4.4',
    required: ['mac_address'],
    // NetBox: a MAC address is no unique field
    sameTwice: 'allowed',
    create: async (ctx) => {
      const iface = await created(ctx, '/api/dcim/interfaces/', {
        device: (await deviceOf(ctx)).id,
        name: uniq('eth'),
        type: '1000base-t',
      });
      return { mac_address: mac(), assigned_object_type: 'dcim.interface', assigned_object_id: iface.id };
    },
    update: { description: 'updated by contract' },
    altUpdate: { comments: 'patched' },
    invalid: { mac_address: 'not-a-mac' },
    briefFields: ['mac_address', 'description'],
    search: (d) => String(d.mac_address),
  },
];
