/** Every builder, for tests that use several families (see README.md). */
export * from './circuits.js';
export * from './dcim.js';
export * from './extras.js';
export * from './ipam.js';
export * from './make.js';
export * from './tenancy.js';
export * from './users.js';
export * from './virtualization.js';
export * from './vpn.js';
export * from './wireless.js';
export * from './netbox4.js';
