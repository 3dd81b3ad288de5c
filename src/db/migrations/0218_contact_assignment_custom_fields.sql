-- NetBox 4.0: contact assignments carry custom fields (and tags, in extras_taggeditem); shown in
-- the 4.4 dialect only (ModelDef.customFields = '4.4')
alter table tenancy_contactassignment add column custom_field_data jsonb not null default '{}';
