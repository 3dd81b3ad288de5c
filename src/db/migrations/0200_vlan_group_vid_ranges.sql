-- NetBox 4.0 (#9627): a VLAN group's child VIDs are a list of ranges, not one min/max pair. Stored
-- as a JSON list of inclusive [lower, upper] pairs, sorted, as the 4.4 dialect shows them; min_vid
-- and max_vid stay as the ranges' outer bounds, which 3.4 shows and filters.
alter table ipam_vlangroup add column vid_ranges jsonb not null default '[[1, 4094]]';
update ipam_vlangroup set vid_ranges = jsonb_build_array(jsonb_build_array(min_vid, max_vid));
