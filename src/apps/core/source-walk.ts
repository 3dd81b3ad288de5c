/**
 * Reads a local data source's directory for a sync: every regular file below the root, as NetBox
 * 3.7's DataSource._walk finds them, within bounds this service sets.
 *
 * - Hidden entries (names starting with `.`) are left out, files and directories alike (NetBox
 *   leaves out hidden files and hidden top-level directories; a hidden directory deeper down is
 *   left out here too).
 * - `ignore_rules`: one fnmatch pattern per line, matched case-sensitively against the file's name
 *   (NetBox: fnmatchcase on the name, not the path).
 * - Symbolic links: one to a file inside the root is read as that file; one that leads outside the
 *   root, or to a directory (not followed: no cycles), is skipped and reported.
 * - Files that cannot be read, larger than DATA_SOURCE_MAX_FILE_SIZE, or whose path exceeds
 *   NetBox's 1000 characters are skipped and reported. Past DATA_SOURCE_MAX_FILES files or
 *   DATA_SOURCE_MAX_TOTAL_SIZE bytes the walk fails, and the sync with it (nothing changes).
 */
import { createHash } from 'node:crypto';
import { constants, type Dirent } from 'node:fs';
import { type FileHandle, open, readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { DataSourceSettings } from '../../config.js';
import { isWithin } from './source-path.js';

export interface WalkedFile {
  size: number;
  hash: string;
  data: Buffer;
}

export interface WalkResult {
  files: Map<string, WalkedFile>;
  /** files left out for a reason worth telling (hidden and ignored files are not listed) */
  skipped: Array<{ path: string; reason: string }>;
}

/** A sync that cannot go on: the data source's configuration or content is at fault. */
export class SyncError extends Error {}

const MAX_PATH = 1000;

/** Python's fnmatch.fnmatchcase pattern as a regular expression: `*`, `?`, `[seq]`, `[!seq]`. */
export function fnmatchRegExp(pattern: string): RegExp {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*') out += '[\\s\\S]*';
    else if (c === '?') out += '[\\s\\S]';
    else if (c === '[') {
      let j = i + 1;
      if (pattern[j] === '!') j++;
      if (pattern[j] === ']') j++;
      while (j < pattern.length && pattern[j] !== ']') j++;
      if (j >= pattern.length) out += '\\[';
      else {
        let body = pattern.slice(i + 1, j);
        const negate = body.startsWith('!');
        if (negate) body = body.slice(1);
        body = body.replace(/\\/g, '\\\\').replace(/\^/g, '\\^').replace(/\]/g, '\\]');
        out += `[${negate ? '^' : ''}${body}]`;
        i = j;
      }
    } else out += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}

/** the ignore rules as matchers; blank lines match nothing */
export function ignoreMatchers(rules: string): RegExp[] {
  return rules
    .split(/\r?\n/)
    .filter((r) => r !== '')
    .map(fnmatchRegExp);
}

export async function walkSource(root: string, ignoreRules: string, limits: DataSourceSettings): Promise<WalkResult> {
  const ignore = ignoreMatchers(ignoreRules);
  const result: WalkResult = { files: new Map(), skipped: [] };
  let total = 0;

  async function readOne(rel: string, absolute: string, followed: boolean): Promise<void> {
    let handle: FileHandle | undefined;
    try {
      // not through a link swapped in since the directory was listed, and never blocking on a FIFO
      // swapped in (O_NONBLOCK does nothing to a regular file)
      const flags = constants.O_RDONLY | constants.O_NONBLOCK | (followed ? 0 : constants.O_NOFOLLOW);
      handle = await open(absolute, flags);
      const st = await handle.stat();
      if (!st.isFile()) return void result.skipped.push({ path: rel, reason: 'not a regular file' });
      if (st.size > limits.maxFileSize) {
        return void result.skipped.push({
          path: rel,
          reason: `larger than DATA_SOURCE_MAX_FILE_SIZE (${limits.maxFileSize} bytes)`,
        });
      }
      const data = await handle.readFile();
      if (data.length > limits.maxFileSize) {
        return void result.skipped.push({
          path: rel,
          reason: `larger than DATA_SOURCE_MAX_FILE_SIZE (${limits.maxFileSize} bytes)`,
        });
      }
      total += data.length;
      if (total > limits.maxTotalSize)
        throw new SyncError(`The files exceed DATA_SOURCE_MAX_TOTAL_SIZE (${limits.maxTotalSize} bytes).`);
      if (result.files.size >= limits.maxFiles)
        throw new SyncError(`The source holds more than DATA_SOURCE_MAX_FILES (${limits.maxFiles}) files.`);
      result.files.set(rel, { size: data.length, hash: createHash('sha256').update(data).digest('hex'), data });
    } catch (e) {
      if (e instanceof SyncError) throw e;
      result.skipped.push({ path: rel, reason: `cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})` });
    } finally {
      await handle?.close();
    }
  }

  async function visit(dir: string, prefix: string): Promise<void> {
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (e) {
      if (prefix === '')
        throw new SyncError(`Directory ${dir} cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'}).`);
      return void result.skipped.push({
        path: prefix.slice(0, -1),
        reason: `directory cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})`,
      });
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const rel = `${prefix}${entry.name}`;
      const absolute = join(dir, entry.name);
      if (entry.isDirectory()) {
        await visit(absolute, `${rel}/`);
        continue;
      }
      if (ignore.some((re) => re.test(entry.name))) continue;
      if (rel.length > MAX_PATH) {
        result.skipped.push({ path: rel.slice(0, MAX_PATH), reason: `path longer than ${MAX_PATH} characters` });
        continue;
      }
      if (entry.isSymbolicLink()) {
        const target = await realpath(absolute).catch(() => null);
        if (target === null) result.skipped.push({ path: rel, reason: 'broken symbolic link' });
        else if (!isWithin(root, target))
          result.skipped.push({ path: rel, reason: 'symbolic link leads outside the data source' });
        else if (!(await stat(target).catch(() => null))?.isFile())
          result.skipped.push({ path: rel, reason: 'symbolic link to a directory or special file (not followed)' });
        else await readOne(rel, target, true);
        continue;
      }
      if (entry.isFile()) await readOne(rel, absolute, false);
    }
  }

  await visit(root, '');
  return result;
}
