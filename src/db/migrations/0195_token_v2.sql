-- NetBox 4.5 (#20210, #20834): v2 tokens and `enabled`. A v1 token keeps its 40-character secret in
-- `key`, as before. A v2 token's `key` is its public 12-character id; its secret is stored only as
-- an HMAC-SHA256 under the pepper `pepper_id` names (API_TOKEN_PEPPERS), never in plain text.
-- `hmac_digest` is no field of the API: only token authentication reads it (src/http/auth.ts).
alter table users_token add column version smallint not null default 1;
alter table users_token add column enabled boolean not null default true;
alter table users_token add column pepper_id smallint;
alter table users_token add column hmac_digest varchar(64);
-- NetBox's enforce_version_dependent_fields, with the v2 key's length
alter table users_token add constraint users_token_version_fields check (
  (version = 1 and pepper_id is null and hmac_digest is null)
  or (version = 2 and pepper_id is not null and hmac_digest is not null and length(key) = 12)
);
