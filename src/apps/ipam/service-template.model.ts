import { defineModel } from '../../core/model/define-model.js';
import { comments, description, name } from '../fields.js';
import { portFilter, portsField, ServiceProtocol, serviceDisplay } from './service-common.js';

/** Service templates (NetBox 3.4): a named protocol and port list services can be created from. */
export const serviceTemplate = defineModel({
  name: 'ipam.servicetemplate',
  path: 'service-templates',
  verboseName: 'service template',
  fields: {
    name: name(100, { unique: true }),
    ports: portsField(),
    protocol: { kind: 'choice', choices: ServiceProtocol, required: true },
    description: description(),
    comments: comments(),
  },
  filters: { port: portFilter },
  display: serviceDisplay,
  ui: {
    columns: ['name', 'protocol', 'ports', 'description'],
    groups: [{ title: 'Application Service Template', fields: ['name', 'protocol', 'ports', 'description'] }],
  },
  brief: ['name', 'protocol', 'ports'],
  ordering: ['name'],
  search: ['name', 'description', 'comments'],
});
