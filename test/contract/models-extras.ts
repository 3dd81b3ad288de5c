/** Contract rows of the extras app (spread into CONTRACT by models.ts). */
import { type ContractCase, created, named } from './contract-case.js';
import { uniq } from '../factories/index.js';

export const EXTRAS_CONTRACT: ContractCase[] = [
  {
    model: 'extras.tag',
    path: '/api/extras/tags/',
    required: ['name', 'slug'],
    sameTwice: 'refused',
    create: async () => ({ ...named('tag'), color: 'ff0000' }),
    update: { color: '00ff00', description: 'updated by contract' },
    altUpdate: () => ({ name: uniq('tag-renamed') }),
    invalid: { color: 'not-a-colour' },
    briefFields: ['name', 'slug', 'color'],
  },
  {
    model: 'extras.customfield',
    path: '/api/extras/custom-fields/',
    required: ['content_types', 'name'],
    sameTwice: 'refused',
    create: async () => ({
      name: uniq('cf').replace(/-/g, '_'),
      content_types: ['tenancy.tenant'],
      type: 'text',
      label: 'Contract',
    }),
    update: { description: 'updated by contract', weight: 200 },
    altUpdate: { filter_logic: 'exact', label: 'Other' },
    invalid: { name: 'not valid!' },
    briefFields: ['name'],
  },
  {
    model: 'extras.journalentry',
    path: '/api/extras/journal-entries/',
    required: ['assigned_object_type', 'assigned_object_id', 'comments'],
    sameTwice: 'allowed',
    create: async (ctx) => {
      const site = await created(ctx, '/api/dcim/sites/', named('site'));
      return {
        assigned_object_type: 'dcim.site',
        assigned_object_id: site.id,
        kind: 'success',
        comments: uniq('journal'),
      };
    },
    update: { comments: 'updated by contract' },
    altUpdate: { kind: 'warning' },
    invalid: { kind: 'bogus' },
    briefFields: ['created'],
    search: (d) => String(d.comments),
  },
  {
    model: 'extras.configcontext',
    path: '/api/extras/config-contexts/',
    required: ['name', 'data'],
    sameTwice: 'refused',
    // assigned to a site of its own, so the context reaches no other row's devices
    create: async (ctx) => {
      const site = await created(ctx, '/api/dcim/sites/', named('site'));
      return { name: uniq('cc'), weight: 500, data: { ntp: ['192.0.2.1'], syslog: { level: 5 } }, sites: [site.id] };
    },
    update: { description: 'updated by contract', weight: 600 },
    altUpdate: { is_active: false, data: { ntp: [] } },
    invalid: { data: ['not', 'an', 'object'] },
    briefFields: ['name'],
  },
  {
    model: 'extras.webhook',
    path: '/api/extras/webhooks/',
    required: ['name', 'payload_url'],
    sameTwice: 'refused',
    create: async () => ({ name: uniq('hook'), payload_url: 'http://127.0.0.1:9/hook', http_method: 'POST' }),
    update: { description: 'updated by contract', body_template: '{{ data.name }}' },
    altUpdate: { http_method: 'PUT', ssl_verification: false },
    invalid: { http_method: 'FETCH' },
    briefFields: ['name'],
  },
  {
    model: 'extras.eventrule',
    path: '/api/extras/event-rules/',
    // NetBox 3.7: action_type has a model default (webhook), action_object_type has none
    required: ['content_types', 'name', 'action_object_type', 'action_object_id'],
    sameTwice: 'refused',
    create: async (ctx) => {
      const hook = await created(ctx, '/api/extras/webhooks/', {
        name: uniq('hook'),
        payload_url: 'http://127.0.0.1:9/hook',
      });
      return {
        name: uniq('rule'),
        content_types: ['dcim.site'],
        type_create: true,
        action_object_type: 'extras.webhook',
        action_object_id: hook.id,
      };
    },
    update: { description: 'updated by contract', type_update: true },
    altUpdate: { enabled: false, conditions: { and: [{ attr: 'status.value', value: 'active' }] } },
    invalid: { conditions: { xor: [] } },
    briefFields: ['name'],
  },
  {
    model: 'extras.contenttype',
    path: '/api/extras/content-types/',
    readOnly: true,
    briefFields: ['app_label', 'model'],
  },
  {
    model: 'extras.objectchange',
    path: '/api/extras/object-changes/',
    readOnly: true,
    // NetBox 3.4 ignores ?brief here; the service renders a brief form (a superset)
    briefFields: ['action', 'changed_object_type', 'changed_object_id', 'object_repr'],
  },
];
