-- Read replicas with read-your-writes (db/replicas/README.md): the primary's WAL position after each
-- user's last write, recorded once the write request has committed and read by the process that
-- serves that user's next read, on any process. A replica answers that read only once it has replayed
-- this far. Read and written on the primary only; no foreign key, so recording it checks nothing else.
create table users_write_position (
  user_id bigint primary key,
  lsn pg_lsn not null
);
