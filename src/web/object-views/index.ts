/**
 * What an object's page shows beyond the generic panels (object-views/README.md): tabs at
 * `<object>/<slug>/` and full-width panels under the object's attributes. A model's related-list
 * tabs are derived from its hints (`ModelUi.tabs`: related-tab.ts); the views here add what a table
 * of fields cannot say, a rack's elevations or a prefix's address space, one file per view.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RequestContext } from '../../core/context.js';
import type { ModelDef } from '../../core/model/types.js';
import type { Represented } from '../components/cells.js';
import type { Html } from '../html.js';
import { uiOf } from '../model-ui.js';
import { RACK_VIEW } from './rack-elevations.view.js';
import { relatedTab } from './related-tab.js';
import { TRACE_VIEWS } from './trace.view.js';
import { CIRCUIT_VIEW } from './circuit-terminations.view.js';
import { SITE_VIEW } from './site-devices.view.js';
import { SITE_TOPOLOGY_VIEW } from './site-topology.view.js';
import { nextAvailableTab } from './next-available.view.js';
import { childPrefixesTab } from './prefix-children.view.js';
import { prefixRangesTab } from './prefix-ranges.view.js';
import { spanAddressesTab } from './span-addresses.view.js';
import { utilisationPanel } from './utilisation-panels.js';
import { vlanGroupVlansTab } from './vlan-group-vlans.view.js';

/** what a tab or panel renders from: the request (its context and query) and the object as the REST detail shows it */
export interface ViewInput {
  request: FastifyRequest;
  reply: FastifyReply;
  model: ModelDef;
  obj: Represented;
}

export interface ObjectTab {
  /** the URL segment under the object's page (`interfaces`) */
  slug: string;
  label: string;
  /**
   * the badge on the tab; `null` hides the tab (nothing to list, or the user may not see what it
   * lists); called for every page of the object, so it reads the object or costs one statement
   */
  count(rc: RequestContext, obj: Represented): Promise<number | null>;
  /** the tab's content under the object's head */
  render(input: ViewInput): Promise<Html>;
}

export interface ObjectPanel {
  /** full-width markup under the object's attributes, or '' for none */
  render(input: ViewInput): Promise<Html | ''>;
}

export interface ObjectView {
  tabs?: ObjectTab[];
  panels?: ObjectPanel[];
}

/** the views by model identity; each view's file says what it shows */
const VIEWS: Record<string, ObjectView> = {
  ...TRACE_VIEWS,
  'circuits.circuit': CIRCUIT_VIEW,
  'dcim.site': { ...SITE_VIEW, ...SITE_TOPOLOGY_VIEW },
  'dcim.rack': RACK_VIEW,
  // NetBox's prefix tabs: Child prefixes, Child ranges, IP addresses, with available space
  'ipam.prefix': {
    tabs: [childPrefixesTab('prefix'), prefixRangesTab, spanAddressesTab('prefix'), nextAvailableTab('prefix')],
    panels: [utilisationPanel('prefix')],
  },
  'ipam.aggregate': { tabs: [childPrefixesTab('aggregate')], panels: [utilisationPanel('aggregate')] },
  'ipam.iprange': {
    tabs: [spanAddressesTab('range'), nextAvailableTab('range')],
    panels: [utilisationPanel('range')],
  },
  'ipam.vlangroup': { tabs: [vlanGroupVlansTab] },
};

/** the object's tabs beyond its own, Changelog and Journal: its related lists, then its views' */
export function objectTabsOf(rc: RequestContext, model: ModelDef): ObjectTab[] {
  return [...uiOf(rc.app.registry, model).tabs.map(relatedTab), ...(VIEWS[model.name]?.tabs ?? [])];
}

export function objectPanelsOf(model: ModelDef): ObjectPanel[] {
  return VIEWS[model.name]?.panels ?? [];
}
