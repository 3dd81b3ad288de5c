import { defineSiteTree } from './tree-group.js';

export const region = defineSiteTree('dcim.region', 'regions', 'region', 'region', [
  ...['dcim.site', 'dcim.location', 'dcim.rack', 'circuits.circuit', 'virtualization.cluster', 'ipam.prefix'].map(
    (model) => ({ model, param: 'region_id' }),
  ),
  { model: 'ipam.vlangroup', param: 'region' },
]);
