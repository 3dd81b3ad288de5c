import { defineSiteTree } from './tree-group.js';

export const siteGroup = defineSiteTree('dcim.sitegroup', 'site-groups', 'site group', 'group', [
  { model: 'dcim.site', param: 'group_id' },
  ...[
    'dcim.location',
    'dcim.rack',
    'dcim.device',
    'ipam.vlan',
    'virtualization.virtualmachine',
    'circuits.circuit',
    'virtualization.cluster',
    'ipam.prefix',
  ].map((model) => ({ model, param: 'site_group_id' })),
  { model: 'ipam.vlangroup', param: 'sitegroup' },
]);
