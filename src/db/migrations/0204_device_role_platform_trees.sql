-- NetBox 4.3 made device roles a tree, NetBox 4.4 platforms (NestedGroupModel: a parent, deleted
-- with it). Each row keeps its depth as migration 0153's trees do, with the same two triggers.
do $$
declare
  t text;
begin
  foreach t in array array['dcim_devicerole', 'dcim_platform'] loop
    execute format('alter table %I add column parent_id bigint references %I(id) on delete cascade', t, t);
    execute format('alter table %I add column _depth int not null default 0', t);
    execute format('create index on %I (parent_id) where parent_id is not null', t);
    execute format('create function %I() returns trigger language plpgsql as $f$
      begin
        if new.parent_id is null then
          new._depth := 0;
        else
          select p._depth + 1 into new._depth from %I p where p.id = new.parent_id for share;
          new._depth := coalesce(new._depth, 0);
        end if;
        return new;
      end $f$', 'inv_tree_depth_' || t, t);
    execute format('create function %I() returns trigger language plpgsql as $f$
      begin
        update %I set _depth = new._depth + 1 where parent_id = new.id;
        return null;
      end $f$', 'inv_tree_depth_moved_' || t, t);
    execute format('create trigger inv_tree_depth before insert or update of parent_id on %I
      for each row execute function %I()', t, 'inv_tree_depth_' || t);
    execute format('create trigger inv_tree_depth_moved after update on %I
      for each row when (old._depth is distinct from new._depth) execute function %I()', t, 'inv_tree_depth_moved_' || t);
  end loop;
end $$;
