-- a bridge's members (NetBox 4.4 bridge_interfaces, shown in the 4.4 dialect) are read by
-- bridge_id, on most rows empty: indexed where set, as migration 0154 does
create index dcim_interface_bridge_id_idx on dcim_interface (bridge_id) where bridge_id is not null;
