/**
 * Contract rows of the template models of extras (NetBox 3.7 custom links, export templates and
 * config templates; brief fields from its nested serializers). Spread into CONTRACT by models.ts.
 */
import type { ContractCase } from './contract-case.js';
import { uniq } from '../factories/index.js';

export const EXTRAS_TEMPLATES_CONTRACT: ContractCase[] = [
  {
    model: 'extras.customlink',
    path: '/api/extras/custom-links/',
    required: ['content_types', 'name', 'link_text', 'link_url'],
    sameTwice: 'refused',
    create: async () => ({
      name: uniq('link'),
      content_types: ['dcim.site'],
      link_text: 'Ticket {{ object.name }}',
      link_url: 'https://tickets.example.com/?q={{ object.name }}',
    }),
    update: { weight: 200, group_name: 'Tickets' },
    altUpdate: { button_class: 'ghost-dark', new_window: true, enabled: false },
    invalid: { button_class: 'rainbow' },
    briefFields: ['name'],
  },
  {
    model: 'extras.exporttemplate',
    path: '/api/extras/export-templates/',
    required: ['content_types', 'name', 'template_code'],
    sameTwice: 'allowed',
    create: async () => ({
      name: uniq('export'),
      content_types: ['dcim.site'],
      template_code: '{% for s in queryset %}{{ s.name }}\n{% endfor %}',
      file_extension: 'txt',
    }),
    update: { description: 'updated by contract', mime_type: 'text/csv' },
    altUpdate: { as_attachment: false, content_types: ['dcim.site', 'dcim.device'] },
    invalid: { content_types: ['nosuch.model'] },
    briefFields: ['name'],
  },
  {
    model: 'extras.configtemplate',
    path: '/api/extras/config-templates/',
    required: ['name', 'template_code'],
    sameTwice: 'allowed',
    create: async () => ({
      name: uniq('config'),
      template_code: 'hostname {{ device.name }}',
      environment_params: { trim_blocks: true },
    }),
    update: { description: 'updated by contract' },
    altUpdate: { template_code: 'interface {{ interface }}', environment_params: null },
    invalid: { name: '' },
    briefFields: ['name'],
  },
];
