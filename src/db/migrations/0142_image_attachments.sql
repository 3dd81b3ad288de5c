-- Image attachments (NetBox 3.7 extras.ImageAttachment): an uploaded image on a site, rack,
-- device, ... through a generic relation. `image` is the file's path under MEDIA_ROOT
-- (`image-attachments/<type>_<id>_<name>.<ext>`); the bytes live on disk, not in the database.
create table extras_imageattachment (
  id bigserial primary key,
  content_type varchar(100) not null,
  object_id bigint not null check (object_id >= 0),
  name varchar(50) not null default '',
  image varchar(100) not null,
  image_height integer not null,
  image_width integer not null,
  created timestamptz not null default now(),
  last_updated timestamptz not null default now()
);
-- NetBox 3.7: Meta.indexes (content_type, object_id); also what a parent's deletion looks up
create index on extras_imageattachment (content_type, object_id);
