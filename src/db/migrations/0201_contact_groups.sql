-- NetBox 4.3 (#17170): a contact belongs to any number of groups. group_id stays as the first of
-- them (the lowest id), which the 3.4 dialect shows as `group` and its (group, name) uniqueness
-- keeps reading.
create table tenancy_contact_groups (
  contact_id bigint not null references tenancy_contact(id) on delete cascade,
  contactgroup_id bigint not null references tenancy_contactgroup(id) on delete cascade,
  primary key (contact_id, contactgroup_id)
);
create index on tenancy_contact_groups (contactgroup_id);
insert into tenancy_contact_groups (contact_id, contactgroup_id)
  select id, group_id from tenancy_contact where group_id is not null;
