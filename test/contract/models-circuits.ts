/**
 * Contract rows for the circuits app and the tenancy contact models (NetBox 3.4 reference 3.4;
 * brief fields from NetBox's nested serializers). Spread into CONTRACT by models.ts.
 */
import { type ContractCase, type ContractContext, type Json, created, named } from './contract-case.js';
import { uniq } from '../factories/index.js';

async function newCircuit(ctx: ContractContext): Promise<Json> {
  const provider = await created(ctx, '/api/circuits/providers/', named('prov'));
  const type = await created(ctx, '/api/circuits/circuit-types/', named('ctype'));
  return created(ctx, '/api/circuits/circuits/', { cid: uniq('cid'), provider: provider.id, type: type.id });
}

// providers carry an m2m of ASNs (reference 3.4); numbers apart from the other rows' ASNs
let asnCounter = 0;

export const CIRCUITS_CONTRACT: ContractCase[] = [
  {
    model: 'circuits.provider',
    path: '/api/circuits/providers/',
    required: ['name', 'slug'],
    sameTwice: 'refused',
    create: async (ctx) => {
      const rir = await created(ctx, '/api/ipam/rirs/', named('rir'));
      const asn = await created(ctx, '/api/ipam/asns/', { asn: 4_150_000_000 + ++asnCounter, rir: rir.id });
      return { ...named('provider'), account: 'ACC-1', comments: 'contract', asns: [asn.id] };
    },
    update: { description: 'updated by contract', account: 'ACC-2' },
    altUpdate: () => ({ name: uniq('provider-renamed') }),
    invalid: { slug: 'not a slug' },
    briefFields: ['name', 'slug', 'circuit_count'],
  },
  {
    model: 'circuits.providernetwork',
    path: '/api/circuits/provider-networks/',
    required: ['provider', 'name'],
    sameTwice: 'refused',
    create: async (ctx) => {
      const provider = await created(ctx, '/api/circuits/providers/', named('prov'));
      return { provider: provider.id, name: uniq('pnet'), service_id: 'svc-1' };
    },
    update: { description: 'updated by contract', service_id: 'svc-2' },
    altUpdate: () => ({ name: uniq('pnet-renamed') }),
    invalid: { name: 'x'.repeat(101) },
    briefFields: ['name'],
  },
  {
    model: 'circuits.circuittype',
    path: '/api/circuits/circuit-types/',
    required: ['name', 'slug'],
    sameTwice: 'refused',
    create: async () => ({ ...named('ctype'), description: 'contract' }),
    update: { description: 'updated by contract' },
    altUpdate: () => ({ name: uniq('ctype-renamed') }),
    invalid: { slug: 'not a slug' },
    briefFields: ['name', 'slug', 'circuit_count'],
  },
  {
    model: 'circuits.circuit',
    path: '/api/circuits/circuits/',
    required: ['cid', 'provider', 'type'],
    sameTwice: 'refused',
    create: async (ctx) => {
      const provider = await created(ctx, '/api/circuits/providers/', named('prov'));
      const type = await created(ctx, '/api/circuits/circuit-types/', named('ctype'));
      // the provider is written by attributes (spec: Writing related objects)
      return {
        cid: uniq('cid'),
        provider: { slug: provider.slug },
        type: type.id,
        status: 'planned',
        install_date: '2024-01-02',
        commit_rate: 10000,
      };
    },
    update: { status: 'active', description: 'updated by contract' },
    altUpdate: { commit_rate: 20000, termination_date: '2030-01-01' },
    invalid: { status: 'bogus' },
    briefFields: ['cid'],
    search: (d) => String(d.cid),
  },
  {
    model: 'circuits.circuittermination',
    path: '/api/circuits/circuit-terminations/',
    required: ['circuit', 'term_side'],
    sameTwice: 'refused',
    create: async (ctx) => {
      const circuit = await newCircuit(ctx);
      const site = await created(ctx, '/api/dcim/sites/', named('site'));
      return { circuit: circuit.id, term_side: 'A', site: site.id, port_speed: 1000, xconnect_id: uniq('xc') };
    },
    update: { description: 'updated by contract', pp_info: 'panel 1 port 2' },
    altUpdate: { port_speed: 2000, mark_connected: true },
    invalid: { term_side: 'Q' },
    briefFields: ['circuit', 'term_side', 'cable', '_occupied'],
    search: (d) => String(d.xconnect_id),
  },
  {
    model: 'tenancy.contactgroup',
    path: '/api/tenancy/contact-groups/',
    required: ['name', 'slug'],
    sameTwice: 'refused',
    create: async () => ({ ...named('cg'), description: 'contract' }),
    update: { description: 'updated by contract' },
    altUpdate: () => ({ name: uniq('cg-renamed') }),
    invalid: { slug: 'not a slug' },
    briefFields: ['name', 'slug', 'contact_count', '_depth'],
  },
  {
    model: 'tenancy.contactrole',
    path: '/api/tenancy/contact-roles/',
    required: ['name', 'slug'],
    sameTwice: 'refused',
    create: async () => ({ ...named('crole'), description: 'contract' }),
    update: { description: 'updated by contract' },
    altUpdate: () => ({ name: uniq('crole-renamed') }),
    invalid: { slug: 'not a slug' },
    briefFields: ['name', 'slug'],
  },
  {
    model: 'tenancy.contact',
    path: '/api/tenancy/contacts/',
    required: ['name'],
    sameTwice: 'refused',
    create: async (ctx) => {
      const group = await created(ctx, '/api/tenancy/contact-groups/', named('cg'));
      return { name: uniq('contact'), group: group.id, title: 'NOC', phone: '+1 555 0100', email: 'noc@example.com' };
    },
    update: { title: 'Engineer', description: 'updated by contract' },
    altUpdate: { group: null, link: 'https://example.com/noc' },
    invalid: { email: 'not-an-email' },
    briefFields: ['name'],
  },
  {
    model: 'tenancy.contactassignment',
    path: '/api/tenancy/contact-assignments/',
    required: ['content_type', 'object_id', 'contact', 'role'],
    sameTwice: 'refused',
    create: async (ctx) => {
      const site = await created(ctx, '/api/dcim/sites/', named('site'));
      const contact = await created(ctx, '/api/tenancy/contacts/', { name: uniq('contact') });
      const role = await created(ctx, '/api/tenancy/contact-roles/', named('crole'));
      // the contact is written by attributes, so search() can read its name
      return {
        content_type: 'dcim.site',
        object_id: site.id,
        contact: { name: contact.name },
        role: role.id,
        priority: 'primary',
      };
    },
    update: { priority: 'secondary' },
    // content types always exist, so they are a target no prerequisite has to create
    altUpdate: { content_type: 'extras.contenttype', object_id: 1 },
    invalid: { priority: 'bogus' },
    briefFields: ['contact', 'role', 'priority'],
    search: (d) => String((d.contact as Json).name),
  },
];
