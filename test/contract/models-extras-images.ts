/**
 * Contract rows for image attachments (NetBox 3.7 extras.imageattachment; brief fields from its
 * nested serializer). The suite posts JSON, so the rows send the image as a base64 data: URI in
 * `image_data`, our extension for JSON clients; multipart uploads, the way pynetbox and curl send
 * it, are tested in test/api/extras/image-attachments.test.ts. Spread into CONTRACT by models.ts.
 */
import { dataUri, gif, png } from '../helpers/images.js';
import type { ContractCase } from './contract-case.js';
import { site } from './models-dcim.js';
import { uniq } from '../factories/index.js';

export const EXTRAS_IMAGES_CONTRACT: ContractCase[] = [
  {
    model: 'extras.imageattachment',
    path: '/api/extras/image-attachments/',
    required: ['content_type', 'object_id'],
    sameTwice: 'allowed',
    create: async (ctx) => ({
      content_type: 'dcim.site',
      object_id: (await site(ctx)).id,
      name: uniq('img'),
      image_data: dataUri(png(4, 3)),
    }),
    update: () => ({ name: uniq('img2') }),
    // replaces the image through a JSON PATCH
    altUpdate: () => ({ image_data: dataUri(gif(2, 2), 'image/gif') }),
    invalid: { image_data: 'not a data URI' },
    briefFields: ['name', 'image'],
  },
];
