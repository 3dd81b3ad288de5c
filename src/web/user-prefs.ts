/**
 * A signed-in user's preferences, kept server-side in users_userconfig (the document
 * `/api/users/config/` shows and patches) at NetBox's paths: `tables.SiteTable.columns`,
 * `ui.colormode`, `pagination.per_page`; and ours, `locale.timezone`. So they follow the user to
 * another browser. A page reads the document once, whatever number of preferences it asks for.
 */
import { sql } from 'kysely';
import type { RequestContext } from '../core/context.js';
import { PAGE_SIZES } from './components/pager.js';

/** NetBox's paths of the preferences the preferences page sets */
export const PREF = {
  colorMode: 'ui.colormode',
  perPage: 'pagination.per_page',
  timeZone: 'locale.timezone',
  tables: 'tables',
} as const;

export type Theme = 'light' | 'dark';

/** the list pages' page size when the user chose none (NetBox's PAGINATE_COUNT default) */
export const DEFAULT_PER_PAGE = 50;

// one read per request: the document, by request context (a write replaces the entry)
const documents = new WeakMap<RequestContext, Promise<Record<string, unknown>>>();

async function readDocument(rc: RequestContext): Promise<Record<string, unknown>> {
  if (!rc.user) return {};
  const r = await sql<{
    data: Record<string, unknown> | null;
  }>`select data from users_userconfig where user_id = ${rc.user.id}`.execute(rc.q);
  const data = r.rows[0]?.data;
  return data && typeof data === 'object' && !Array.isArray(data) ? data : {};
}

/** the user's whole preferences document ({} for an anonymous user or one who set none) */
function prefsOf(rc: RequestContext): Promise<Record<string, unknown>> {
  let doc = documents.get(rc);
  if (!doc) documents.set(rc, (doc = readDocument(rc)));
  return doc;
}

export async function getPref(rc: RequestContext, path: string): Promise<unknown> {
  let v: unknown = await prefsOf(rc);
  for (const k of path.split('.')) {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
    v = (v as Record<string, unknown>)[k];
  }
  return v ?? undefined;
}

/** the colour mode the user chose; absent: the system's (prefers-color-scheme) */
export async function themeOf(rc: RequestContext): Promise<Theme | undefined> {
  const mode = await getPref(rc, PREF.colorMode);
  return mode === 'light' || mode === 'dark' ? mode : undefined;
}

/** the page size the user chose for lists, when it is one the pager offers */
export async function perPagePref(rc: RequestContext): Promise<number> {
  const n = Number(await getPref(rc, PREF.perPage));
  return PAGE_SIZES.includes(n) ? n : DEFAULT_PER_PAGE;
}

/** the time zone times are shown in (an IANA name the runtime knows); absent: UTC */
export async function timeZoneOf(rc: RequestContext): Promise<string | undefined> {
  const tz = await getPref(rc, PREF.timeZone);
  return typeof tz === 'string' && isTimeZone(tz) ? tz : undefined;
}

let zones: Set<string> | null = null;
/** the IANA time zones this runtime can show times in, UTC first */
export function timeZones(): string[] {
  return ['UTC', ...Intl.supportedValuesOf('timeZone').filter((z) => z !== 'UTC')];
}
export function isTimeZone(tz: string): boolean {
  zones ??= new Set(timeZones());
  return zones.has(tz);
}

/** sets (or, with undefined, removes) the value at `path`, keeping the rest of the document */
export async function setPref(rc: RequestContext, path: string, value: unknown): Promise<void> {
  if (!rc.user) return;
  documents.delete(rc);
  const keys = path.split('.');
  const v = value === undefined ? null : JSON.stringify(value);
  // create the document, then set or remove the key, making missing parents on the way
  await sql`insert into users_userconfig (user_id, data) values (${rc.user.id}, '{}'::jsonb)
    on conflict (user_id) do nothing`.execute(rc.q);
  for (let i = 1; i < keys.length; i++) {
    const parent = keys.slice(0, i);
    await sql`update users_userconfig set data = jsonb_set(data, ${parent}::text[], '{}'::jsonb, true)
      where user_id = ${rc.user.id} and jsonb_typeof(data #> ${parent}::text[]) is distinct from 'object'`.execute(
      rc.q,
    );
  }
  if (v === null) {
    await sql`update users_userconfig set data = data #- ${keys}::text[] where user_id = ${rc.user.id}`.execute(rc.q);
    // and the parents it leaves empty, so the document says only what the user chose
    for (let i = keys.length - 1; i >= 1; i--) {
      const parent = keys.slice(0, i);
      await sql`update users_userconfig set data = data #- ${parent}::text[]
        where user_id = ${rc.user.id} and data #> ${parent}::text[] = '{}'::jsonb`.execute(rc.q);
    }
  } else {
    await sql`update users_userconfig set data = jsonb_set(data, ${keys}::text[], ${v}::jsonb, true) where user_id = ${rc.user.id}`.execute(
      rc.q,
    );
  }
}
