-- NetBox 4.3 rendering options shared by export and config templates, shown in the 4.4 dialect
-- only: an export template's file name and Jinja environment; a config template's MIME type, file
-- name, extension and attachment flag.
alter table extras_exporttemplate add column file_name varchar(200) not null default '';
alter table extras_exporttemplate add column environment_params jsonb default '{}';
alter table extras_configtemplate add column mime_type varchar(50) not null default '';
alter table extras_configtemplate add column file_name varchar(200) not null default '';
alter table extras_configtemplate add column file_extension varchar(15) not null default '';
alter table extras_configtemplate add column as_attachment boolean not null default true;
