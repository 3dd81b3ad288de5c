import { defineSiteTree } from './tree-group.js';

export const siteGroup = defineSiteTree('dcim.sitegroup', 'site-groups', 'site group', 'group');
