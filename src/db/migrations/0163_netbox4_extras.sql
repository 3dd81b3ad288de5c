-- NetBox 4.0-4.4 fields of tags, image attachments and custom fields, shown in the 4.4 dialect
-- only: a tag's weight (4.3), an attachment's description (4.4), a custom field's unique flag and
-- related object filter (4.1) and comments (4.0).
alter table extras_tag add column weight smallint not null default 1000 check (weight >= 0);
alter table extras_imageattachment add column description varchar(200) not null default '';
alter table extras_customfield add column "unique" boolean not null default false;
alter table extras_customfield add column related_object_filter jsonb;
alter table extras_customfield add column comments text not null default '';
