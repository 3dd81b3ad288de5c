-- NetBox 4.2 Q-in-Q (802.1ad, #9102) and VLAN translation on interfaces, shown in the 4.4 dialect
-- only. A VLAN's `qinq_role` marks it a service (svlan) or customer (cvlan) VLAN, and a customer
-- VLAN names its service VLAN, which cannot be deleted while it has any (NetBox: PROTECT). A
-- customer VLAN's VID and name are unique per service VLAN (NetBox's unique_qinq_svlan_vid and
-- unique_qinq_svlan_name). An interface in mode q-in-q names its service VLAN (cleared when that
-- VLAN is deleted) and, in any mode, a VLAN translation policy (which cannot be deleted while used).
alter table ipam_vlan add column qinq_role varchar(50);
alter table ipam_vlan add column qinq_svlan_id bigint references ipam_vlan(id);
alter table ipam_vlan add constraint ipam_vlan_unique_qinq_svlan_vid unique (qinq_svlan_id, vid);
alter table ipam_vlan add constraint ipam_vlan_unique_qinq_svlan_name unique (qinq_svlan_id, name);

alter table dcim_interface add column qinq_svlan_id bigint references ipam_vlan(id) on delete set null;
alter table dcim_interface add column vlan_translation_policy_id bigint references ipam_vlantranslationpolicy(id);
alter table virtualization_vminterface
  add column qinq_svlan_id bigint references ipam_vlan(id) on delete set null;
alter table virtualization_vminterface
  add column vlan_translation_policy_id bigint references ipam_vlantranslationpolicy(id);

-- empty on most rows, looked up only by value (a VLAN's or a policy's deletion, the filters): indexed
-- where set, as migration 0154 does for an interface's other sparse links
create index dcim_interface_qinq_svlan_id_idx on dcim_interface (qinq_svlan_id) where qinq_svlan_id is not null;
create index dcim_interface_vlan_translation_policy_id_idx on dcim_interface (vlan_translation_policy_id)
  where vlan_translation_policy_id is not null;
create index virtualization_vminterface_qinq_svlan_id_idx on virtualization_vminterface (qinq_svlan_id)
  where qinq_svlan_id is not null;
create index virtualization_vminterface_vlan_translation_policy_id_idx on virtualization_vminterface
  (vlan_translation_policy_id) where vlan_translation_policy_id is not null;
