/**
 * Uploaded files under MEDIA_ROOT, stored as Django's FileSystemStorage stores them: a path-safe
 * name (get_valid_filename), made unique with a random suffix when taken (get_available_name), at
 * most 100 characters with its folder (FileField max_length). Written atomically: the bytes go to a
 * temporary file first, which is then hard-linked under its final name (link fails when the name
 * is taken, also by another process sharing the folder), so no reader ever sees half a file.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { link, mkdir, open, unlink } from 'node:fs/promises';
import { join } from 'node:path';

/** Django FileField's default max_length: the stored name, folder included */
const MAX_NAME_LENGTH = 100;

/** letters, digits, underscores, hyphens and dots (Django get_valid_filename keeps `[-\w.]`) */
const UNSAFE = /[^-\p{L}\p{N}\p{M}_.]/gu;
const SAFE_FILE_NAME = /^[-\p{L}\p{N}\p{M}_][-\p{L}\p{N}\p{M}_.]*$/u;

/** Django's get_valid_filename: spaces become underscores, other unsafe characters are dropped. */
export function validFileName(name: string): string {
  const safe = name.trim().replaceAll(' ', '_').replace(UNSAFE, '');
  return safe === '' || /^\.+$/.test(safe) ? 'file' : safe;
}

const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
function randomSuffix(): string {
  return [...randomBytes(7)].map((b) => ALNUM[b % ALNUM.length]).join('');
}

/** `<folder>/<root><suffix><ext>` cut to MAX_NAME_LENGTH by shortening the root (get_available_name) */
function candidate(folder: string, file: string, suffix: string): string {
  const dot = file.lastIndexOf('.');
  // an "extension" too long to keep whole is part of the name, cut like the rest
  const [root, ext] = dot > 0 && file.length - dot <= 16 ? [file.slice(0, dot), file.slice(dot)] : [file, ''];
  const room = MAX_NAME_LENGTH - folder.length - 1 - suffix.length - ext.length;
  return `${folder}/${root.slice(0, Math.max(1, room))}${suffix}${ext}`;
}

/**
 * Stores bytes as `<folder>/<file>` under root (the name cleaned and made unique); returns the
 * stored name, relative to root.
 */
export async function storeFile(root: string, folder: string, fileName: string, bytes: Buffer): Promise<string> {
  const dir = join(root, folder);
  await mkdir(dir, { recursive: true });
  const tmp = join(dir, `.upload-${randomBytes(8).toString('hex')}.tmp`);
  const handle = await open(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o644);
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    const file = validFileName(fileName);
    for (let attempt = 0; ; attempt++) {
      const name = candidate(folder, file, attempt === 0 ? '' : `_${randomSuffix()}`);
      try {
        await link(tmp, join(root, name));
        return name;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 20) throw err;
      }
    }
  } finally {
    await unlink(tmp).catch(() => undefined);
  }
}

/** Removes a stored file; one already gone is no error. */
export async function removeFile(root: string, name: string): Promise<void> {
  const path = resolveStored(root, name);
  if (!path) return;
  try {
    await unlink(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

/**
 * The absolute path of a stored name given by a client (`image-attachments/site_1_a.png`), or
 * null when it is not one this store could have made: one folder and one safe file name, so no
 * `..`, no absolute path, no hidden or temporary file.
 */
export function resolveStored(root: string, name: string): string | null {
  const parts = name.split('/');
  if (parts.length !== 2) return null;
  const [folder, file] = parts as [string, string];
  if (!/^[a-z][a-z0-9-]*$/.test(folder) || !SAFE_FILE_NAME.test(file)) return null;
  return join(root, folder, file);
}
