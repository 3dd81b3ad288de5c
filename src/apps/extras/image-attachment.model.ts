/**
 * Image attachments (NetBox 3.7 extras.ImageAttachment): an image file on an object of the types
 * that take them (ImageAttachmentsMixin), through a generic relation; deleting the object deletes
 * its attachments (core/crud/delete-collector.ts) and their files.
 *
 * The image is written as a file part of a multipart/form-data body (`image`, as pynetbox and curl
 * send it; http/multipart-body.ts), or, our extension for JSON-only clients, as a base64 `data:`
 * URI in the write-only `image_data`. Its bytes must be a PNG, JPEG, GIF, WebP or BMP image
 * (core/media/image-info.ts); its size in pixels is read from it. The file is stored under
 * MEDIA_ROOT (image-attachment-files.ts) and the row's `image` names it; responses give its URL.
 */
import { defineModel } from '../../core/model/define-model.js';
import type { CustomFilter } from '../../core/model/types.js';
import { description } from '../fields.js';
import { contentTypeIdFilter } from './content-type-id-filter.js';
import {
  attachmentUpload,
  mediaUrl,
  removeAfterCommit,
  storeAttachmentImage,
  uploadErrors,
} from './image-attachment-files.js';

/** NetBox 3.7: the models with ImageAttachmentsMixin */
const IMAGE_ATTACHMENT_TYPES = [
  'circuits.circuit',
  'dcim.device',
  'dcim.devicetype',
  'dcim.location',
  'dcim.moduletype',
  'dcim.powerpanel',
  'dcim.rack',
  'dcim.site',
];

// DRF FileField's message for a value that is not a file (a JSON string)
const NOT_A_FILE = 'The submitted data was not a file. Check the encoding type on the form.';

/** NetBox 3.7 __str__: the name, else the stored file's name after `<type>_<id>_` */
function displayOf(row: Record<string, unknown>): string {
  if (row.name) return String(row.name);
  const file =
    String(row.image ?? '')
      .split('/')
      .pop() ?? '';
  const parts = file.split('_');
  return parts.length >= 3 ? parts.slice(2).join('_') : file;
}

const filters: Record<string, CustomFilter> = { content_type_id: contentTypeIdFilter('content_type') };

export const imageAttachment = defineModel({
  name: 'extras.imageattachment',
  path: 'image-attachments',
  verboseName: 'image attachment',
  uploads: true,
  fields: {
    content_type: { kind: 'contenttype', required: true, types: IMAGE_ATTACHMENT_TYPES },
    object_id: { kind: 'integer', required: true, min: 0 },
    parent: { kind: 'generic', generic: { type: 'content_type', id: 'object_id' } },
    name: { kind: 'string', maxLength: 50 },
    // NetBox 4.4, shown in the 4.4 dialect only
    description: { ...description(), dialect: '4.4' },
    // written as a file part; stored as the file's name under MEDIA_ROOT, rendered as its URL
    image: {
      kind: 'string',
      validate: () => NOT_A_FILE,
      noFilter: true,
      noOrdering: true,
      shape: { type: 'string', format: 'uri' },
      help: 'The image file (multipart/form-data); its URL in responses.',
    },
    image_data: {
      kind: 'string',
      writeOnly: true,
      notStored: true,
      noChangelog: true,
      noFilter: true,
      validate: (v) =>
        attachmentUpload.isDataUri(v as string)
          ? undefined
          : 'Enter the image as a data: URI with base64 content (data:image/png;base64,...).',
      help: 'Extension for JSON clients: the image as a base64 data: URI, instead of a multipart file part.',
    },
    // NetBox 3.7 lists them as writable; they are read from the image (as 4.x makes them read-only)
    image_height: { kind: 'integer', readOnly: true },
    image_width: { kind: 'integer', readOnly: true },
  },
  tags: false,
  customFields: false,
  // NetBox 3.7 ImageAttachment.to_objectchange: the change names the parent as its related object
  relatedObject: 'parent',
  filters,
  display: displayOf,
  hooks: {
    async validate({ rc, data, before, sent }) {
      const upload = attachmentUpload.of(rc, data, sent);
      if (!upload) return before ? undefined : { image: ['No file was submitted.'] };
      const errors = uploadErrors(rc, upload);
      return errors.length ? { image: errors } : undefined;
    },
    async prepare({ rc, data, before, sent }) {
      const upload = attachmentUpload.of(rc, data, sent);
      if (upload) await storeAttachmentImage(rc, upload, data, before);
    },
    afterDelete({ rc, rows }) {
      for (const row of rows) removeAfterCommit(rc, String(row.image));
    },
    represent(rc, rows, out) {
      rows.forEach((row, i) => {
        if ('image' in out[i]!) out[i]!.image = row.image ? mediaUrl(rc, String(row.image)) : null;
      });
    },
  },
  ui: {
    columns: ['image', 'parent'],
    clone: ['content_type', 'object_id'],
    groups: [{ title: '', fields: ['parent', 'image', 'name'] }],
  },
  brief: ['name', 'image'],
  netbox44: {
    // NetBox 4.4: attachments have a description, shown in the brief form
    brief: ['name', 'image', 'description'],
    // NetBox 4.0: content types became object types
    renamed: { content_type: 'object_type' },
  },
  // NetBox 3.7 Meta.ordering: ('name', 'pk'), names may repeat
  ordering: ['name', 'id'],
  search: ['name'],
});
