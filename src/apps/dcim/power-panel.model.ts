/**
 * Power panels (NetBox 3.4 PowerPanel): a distribution point in a site, optionally in one of the
 * site's locations. Names are unique per site. Brief `{…, name, powerfeed_count}` as NetBox 3.4's
 * NestedPowerPanelSerializer.
 */
import { sql } from 'kysely';
import { defineModel } from '../../core/model/define-model.js';
import { comments, description, fk, name } from '../fields.js';
import { contactFilters } from '../tenancy/contact-filters.js';
import { siteScope } from '../../core/query/filter-blocks.js';

export const powerPanel = defineModel({
  name: 'dcim.powerpanel',
  path: 'power-panels',
  verboseName: 'power panel',
  fields: {
    site: fk('dcim.site', { required: true, nullable: false, onDelete: 'protect', relatedName: 'powerpanel_set' }),
    // NetBox 3.4: PROTECT; `location_id` matches the named locations and those below them
    location: fk('dcim.location', { onDelete: 'protect', treeFilter: true, relatedName: 'powerpanel_set' }),
    name: name(100),
    description: description(),
    comments: comments(),
  },
  counts: { powerfeed_count: { model: 'dcim.powerfeed', via: 'power_panel' } },
  uniqueTogether: [{ fields: ['site', 'name'], message: 'Power panel with this Site and Name already exists.' }],
  filters: {
    ...contactFilters(),
    ...siteScope(['site']),
  },
  hooks: {
    async validate({ rc, data }) {
      if (data.location_id == null) return;
      // NetBox 3.4 PowerPanel.clean(): the location must belong to the panel's site
      const res = await sql<{ name: string; site_id: number; site: string }>`select l.name, l.site_id, s.name as site
        from dcim_location l join dcim_site s on s.id = l.site_id where l.id = ${data.location_id}`.execute(rc.q);
      const loc = res.rows[0];
      if (!loc || Number(loc.site_id) === Number(data.site_id)) return;
      const site = await sql<{ name: string }>`select name from dcim_site where id = ${data.site_id}`.execute(rc.q);
      return {
        __all__: [`Location ${loc.name} (${loc.site}) is in a different site than ${site.rows[0]?.name ?? ''}`],
      };
    },
  },
  ui: {
    columns: ['name', 'site', 'location', 'powerfeed_count'],
    groups: [{ title: 'Power Panel', fields: ['site', 'location', 'name', 'description'] }],
    pickerFilters: { location: { site_id: 'site' } },
    related: [{ model: 'dcim.powerfeed', param: 'power_panel_id' }],
  },
  brief: ['name', 'powerfeed_count'],
  // NetBox 4.0: the brief form gains description, before the counts (#15238)
  netbox44: { brief: ['name', 'description', 'powerfeed_count'] },
  ordering: ['site', 'name'],
  search: ['name', 'description', 'comments'],
});
