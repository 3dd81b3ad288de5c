/**
 * Where a local data source points on the server. NetBox 3.7's local backend reads a directory
 * named by `source_url`: `file:///srv/data` or a plain `/srv/data` (other schemes are refused).
 * A data source can make the service read any directory its process can read, so where
 * DATA_SOURCE_ROOTS is set the directory must lie inside one of those roots - checked on the path
 * as written when the source is saved, and on the real path (symbolic links resolved) at each sync.
 */
import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** the directory a source_url names, or an error message */
export function localDirectory(sourceUrl: string): { dir: string } | { error: string } {
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(sourceUrl);
  const scheme = m?.[1]?.toLowerCase() ?? '';
  // NetBox 3.7: a local source's URL has the file scheme or none
  if (scheme && scheme !== 'file')
    return { error: 'URLs for local sources must start with file:// (or specify no scheme)' };
  let dir = sourceUrl;
  if (scheme === 'file') {
    try {
      dir = fileURLToPath(sourceUrl);
    } catch {
      return { error: 'Enter a file:// URL with an absolute path and no host, such as file:///srv/netbox-data.' };
    }
  }
  if (!isAbsolute(dir)) return { error: 'Enter an absolute directory path on the server, such as /srv/netbox-data.' };
  return { dir: resolve(dir) };
}

/** true when `path` is `root` or lies below it */
export function isWithin(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** the error when DATA_SOURCE_ROOTS is set and `dir` lies outside every root */
export function outsideRootsError(roots: readonly string[], dir: string): string | undefined {
  if (!roots.length || roots.some((r) => isWithin(resolve(r), dir))) return undefined;
  return `This directory is not inside an allowed data source root (DATA_SOURCE_ROOTS: ${roots.join(', ')}).`;
}

/** the real directory a sync reads (symbolic links resolved), checked against the roots again */
export async function realSourceDirectory(roots: readonly string[], sourceUrl: string): Promise<string> {
  const named = localDirectory(sourceUrl);
  if ('error' in named) throw new Error(named.error);
  const real = await realpath(named.dir).catch(() => {
    throw new Error(`Directory ${named.dir} does not exist or cannot be read.`);
  });
  const realRoots = await Promise.all(roots.map((r) => realpath(resolve(r)).catch(() => resolve(r))));
  if (realRoots.length && !realRoots.some((r) => isWithin(r, real))) {
    throw new Error(
      `Directory ${named.dir} resolves to ${real}, outside every allowed data source root (DATA_SOURCE_ROOTS).`,
    );
  }
  return real;
}
