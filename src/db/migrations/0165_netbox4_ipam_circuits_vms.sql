-- NetBox 4.1-4.3 fields of IP ranges, L2VPNs, virtual machines and circuits, shown in the 4.4
-- dialect only: mark_populated (4.3), an L2VPN's status (4.3), a VM's serial (4.1), a circuit's
-- distance and its unit (4.2).
alter table ipam_iprange add column mark_populated boolean not null default false;
alter table vpn_l2vpn add column status varchar(50) not null default 'active';
alter table virtualization_virtualmachine add column serial varchar(50) not null default '';
alter table circuits_circuit add column distance numeric(8, 2);
alter table circuits_circuit add column distance_unit varchar(50) not null default '';
