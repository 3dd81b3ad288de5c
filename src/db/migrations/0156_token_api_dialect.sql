-- A token may speak NetBox 4.4's API while the deployment's default stays 3.4 (the Terraform
-- provider's token, say): '' follows the deployment (API_DIALECT), '3.4' or '4.4' chooses.
-- Set when the token is created and never changed after (core/model/dialect.ts).
alter table users_token add column api_dialect varchar(10) not null default '';
