/**
 * The files of image attachments: which upload a write carries, its checks, where it is stored and
 * when stored files go away. A file is written while the row's transaction is open and removed
 * again if it rolls back (rc.onRollback); a replaced or deleted attachment's file is removed only
 * once the transaction has committed (rc.afterCommit), so a rolled-back change loses no file.
 */
import type { RequestContext } from '../../core/context.js';
import { readImageInfo } from '../../core/media/image-info.js';
import { removeFile, storeFile } from '../../core/media/media-store.js';

const ATTACHMENT_FOLDER = 'image-attachments';

/** NetBox 3.7 image_upload: the written name replaces the file's when its extension is one of these */
const NAMED_EXTENSIONS = ['bmp', 'gif', 'jpeg', 'jpg', 'png', 'webp'];

const DATA_URI = /^data:(?:[\w.+-]+\/[\w.+-]+)?(?:;[\w.+-]+=[^;,]*)*;base64,([A-Za-z0-9+/=\s]*)$/;

export interface Upload {
  bytes: Buffer;
  /** the client's file name (a data: URI has none) */
  filename: string | null;
}

export const attachmentUpload = {
  isDataUri: (v: string) => DATA_URI.test(v),
  /** the image a write carries: the multipart file part `image`, else `image_data` when sent */
  of(rc: RequestContext, data: Record<string, unknown>, sent: ReadonlySet<string>): Upload | null {
    const file = rc.files?.get('image');
    if (file) return { bytes: file.data, filename: file.filename };
    if (!sent.has('image_data') || typeof data.image_data !== 'string') return null;
    const m = DATA_URI.exec(data.image_data);
    return m ? { bytes: Buffer.from(m[1]!, 'base64'), filename: null } : null;
  },
};

/** What is wrong with an upload, in DRF ImageField's words; empty when it is a good image. */
export function uploadErrors(rc: RequestContext, upload: Upload): string[] {
  const max = rc.app.config.imageAttachmentMaxSize;
  if (upload.bytes.length === 0) return ['The submitted file is empty.'];
  if (upload.bytes.length > max)
    return [`Ensure this file is no larger than ${max} bytes (it has ${upload.bytes.length}).`];
  if (!readImageInfo(upload.bytes)) {
    return ['Upload a valid image. The file you uploaded was either not an image or a corrupted image.'];
  }
  return [];
}

/** NetBox 3.7 image_upload: `<type's verbose name>_<object id>_<name or file name>` */
function attachmentFileName(typeName: string, objectId: unknown, name: string, filename: string): string {
  const extension = filename.split('.').pop()!.toLowerCase();
  const base = name && NAMED_EXTENSIONS.includes(extension) ? `${name}.${extension}` : name || filename;
  return `${typeName}_${String(objectId)}_${base}`;
}

/**
 * Stores the upload for the row being written and records it in `data` (image, its size in
 * pixels); the previous file of a replaced image is removed after the commit.
 */
export async function storeAttachmentImage(
  rc: RequestContext,
  upload: Upload,
  data: Record<string, unknown>,
  before: Record<string, unknown> | null,
) {
  if (!rc.onRollback)
    throw new Error('an image attachment is written only inside inTransaction (its file must be undone on rollback)');
  const info = readImageInfo(upload.bytes)!;
  const merged = { ...(before ?? {}), ...data };
  const type = rc.app.registry.get(String(merged.content_type));
  const filename = upload.filename || `image.${info.format}`;
  const root = rc.app.config.mediaRoot;
  const stored = await storeFile(
    root,
    ATTACHMENT_FOLDER,
    attachmentFileName(type.verboseName, merged.object_id, String(merged.name ?? ''), filename),
    upload.bytes,
  );
  rc.onRollback.push(() => removeFile(root, stored));
  if (before?.image) removeAfterCommit(rc, String(before.image));
  data.image = stored;
  data.image_height = info.height;
  data.image_width = info.width;
}

/**
 * Removes a stored file once the write's transaction commits. Outside a transaction there is no
 * commit to wait for, and a file is never removed before its row is gone for good: it stays.
 */
export function removeAfterCommit(rc: RequestContext, stored: string): void {
  if (!stored) return;
  rc.afterCommit?.push(() =>
    removeFile(rc.app.config.mediaRoot, stored).catch((err: unknown) =>
      rc.app.log.warn({ err, file: stored }, 'removing a media file failed'),
    ),
  );
}

/** The absolute URL a stored file is served at (NetBox: MEDIA_URL + name). */
export function mediaUrl(rc: RequestContext, stored: string): string {
  return `${rc.baseUrl}/media/${stored.split('/').map(encodeURIComponent).join('/')}`;
}
