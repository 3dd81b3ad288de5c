-- Browser sign-in (http/sessions.ts). A session row is looked up on every request that carries
-- its cookie, so every process honours it and deleting it signs out everywhere. Only a SHA-256
-- of the cookie value is stored: a copy of the table signs no one in.
create table users_session (
  key_hash text primary key,
  user_id bigint not null references users_user(id) on delete cascade,
  created timestamptz not null default now(),
  expires timestamptz not null,
  client_ip text not null default ''
);
create index on users_session (user_id);
create index on users_session (expires);

-- Failed sign-ins per (username, client address), for the growing wait between attempts
-- (http/sign-in-throttle.ts); in the database so that several processes count together.
create table users_signin_failure (
  username varchar(150) not null,
  client_ip text not null,
  failures integer not null default 0,
  last_failure timestamptz not null default now(),
  primary key (username, client_ip)
);
