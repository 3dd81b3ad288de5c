/**
 * What particular types of a source need before they are written: image attachments' files,
 * tokens whose keys can be read, NetBox 4's hidden superuser flag, and the custom fields whose
 * values are objects (written in the second pass).
 */
import type { UploadedFile } from '../core/media/uploaded-file.js';
import type { Rep, Source } from './source.js';

/**
 * Each image attachment's file, read from the URL the source gives (its MEDIA_URL). An attachment
 * whose file the source does not serve to the token (a NetBox whose media needs a session) is
 * left out with a note. The file keeps its name without the `<type>_<id>_` NetBox prefixed.
 */
export async function attachmentFiles(source: Source, reps: Rep[], notes: string[]) {
  const files = new Map<number, UploadedFile>();
  const failed: string[] = [];
  for (const r of reps) {
    const href = typeof r.image === 'string' ? r.image : '';
    const got = href ? await source.download(href) : 404;
    if (typeof got === 'number') {
      failed.push(`${r.id} (${got || 'no answer'})`);
      continue;
    }
    const base = decodeURIComponent(href.split('/').pop() ?? 'image');
    files.set(Number(r.id), {
      field: 'image',
      filename: /^.+?_\d+_(.+)$/.exec(base)?.[1] ?? base,
      contentType: null,
      data: got,
    });
  }
  if (failed.length)
    notes.push(
      `extras.imageattachment: ${failed.length} not copied, the source did not serve their files: ${failed.slice(0, 10).join(', ')}; copy its MEDIA_ROOT/image-attachments and attach them again`,
    );
  return { files, reps: reps.filter((r) => files.has(Number(r.id))) };
}

/**
 * Tokens whose key the source shows: NetBox 3 always does, NetBox 4 with ALLOW_TOKEN_RETRIEVAL
 * only. Without its key a token would be made with a new one, which nobody holds: left out.
 */
export function retrievableTokens(reps: Rep[], notes: string[]): Rep[] {
  const out = reps.filter((r) => typeof r.key === 'string' && /^[0-9a-f]{40}$/i.test(r.key));
  if (out.length < reps.length)
    notes.push(
      `users.token: ${reps.length - out.length} tokens not copied, the source does not show their keys (NetBox 4: ALLOW_TOKEN_RETRIEVAL); make new ones`,
    );
  return out;
}

/**
 * NetBox 4's API does not show who is a superuser; its users list still filters by it. Both halves
 * are read and must add up to the whole, so a source that ignored the filter (and would answer
 * every user to both) makes nobody a superuser instead of everybody.
 */
export async function markSuperusers(source: Source, path: string, users: Rep[]): Promise<string | null> {
  if (!users.length || users.some((u) => 'is_superuser' in u)) return null;
  const half = async (v: boolean) => {
    const ids = new Set<number>();
    for await (const page of source.pages(path, `&is_superuser=${v}`)) for (const u of page) ids.add(Number(u.id));
    return ids;
  };
  const [yes, no] = [await half(true), await half(false)];
  const whole =
    yes.size + no.size === users.length && users.every((u) => yes.has(Number(u.id)) !== no.has(Number(u.id)));
  if (!whole)
    return "users: the source's API does not tell who is a superuser; none was made one (`inventory createsuperuser`, or a superuser's user page)";
  for (const u of users) u.is_superuser = yes.has(Number(u.id));
  return null;
}

/** custom fields whose values are objects, by the model they apply to (written in the second pass) */
export function objectCustomFields(reps: Rep[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const cf of reps) {
    const type = (cf.type as Rep | string | undefined) ?? '';
    const value = typeof type === 'object' ? type.value : type;
    if (value !== 'object' && value !== 'multiobject') continue;
    for (const m of ((cf.object_types ?? cf.content_types) as string[] | undefined) ?? []) {
      if (!out.has(m)) out.set(m, new Set());
      out.get(m)!.add(String(cf.name));
    }
  }
  return out;
}
