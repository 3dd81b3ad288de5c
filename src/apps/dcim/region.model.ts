import { defineSiteTree } from './tree-group.js';

export const region = defineSiteTree('dcim.region', 'regions', 'region', 'region');
