/**
 * The hostile sweep's per-field classes, built from the service's own OpenAPI document so that they
 * reach every endpoint it lists (a new model or field is swept without editing this file): related
 * objects, lists of them, generic relations, tags, custom fields and required fields written badly,
 * and filters given values no row can have. Each case must be refused with a 4xx whose body names
 * the field or parameter (`names`); a 2xx, or a 4xx about something else, counts against its class.
 */
import { type Api, call } from './http.js';
import type { HostileCase } from './hostile-cases.js';

type Schema = Record<string, unknown> & { properties?: Record<string, Schema>; required?: string[] };

export interface Endpoint {
  path: string;
  /** the writable request body's schema (none: read-only) */
  body: Schema | null;
  /** list filter name -> its value schema */
  params: Map<string, Schema>;
}

interface OpenApi {
  paths: Record<
    string,
    Record<string, { parameters?: Array<{ name: string; schema: Schema }>; requestBody?: unknown }>
  >;
  components: { schemas: Record<string, Schema> };
}

/** Every list endpoint of `/api/<app>/<model>/` in the service's OpenAPI document. */
export async function loadEndpoints(api: Api): Promise<Endpoint[]> {
  const doc = await call<OpenApi>(api, 'GET', '/api/schema/?format=json');
  const out: Endpoint[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    if (!/^\/api\/[a-z-]+\/[a-z-]+\/$/.test(path) || !ops.get) continue;
    const params = new Map((ops.get.parameters ?? []).map((p) => [p.name, p.schema]));
    const ref = JSON.stringify(ops.post?.requestBody ?? '').match(/#\/components\/schemas\/(\w+)/)?.[1];
    out.push({ path, body: ref ? (doc.components.schemas[ref] ?? null) : null, params });
  }
  return out;
}

const text = (s: Schema) => JSON.stringify(s);
/** a related object: an id or a dictionary of attributes */
const isRelated = (s: Schema) =>
  Array.isArray(s.anyOf) && text(s).includes('"integer"') && text(s).includes('"object"');
/** a list of related objects */
const isRelatedList = (s: Schema) => s.type === 'array' && text(s.items as Schema).includes('"integer"');

/** values no related object can be named by (spec: Writing related objects) */
export const BAD_RELATED: unknown[] = [
  0,
  {},
  'abc',
  { no_such_attribute: 1 },
  { id: [1] },
  { id: { id: { id: { id: 1 } } } },
  true,
];
/** members a list of related objects refuses */
const BAD_MEMBERS: unknown[] = [null, 0, {}, 'abc', { no_such_attribute: 1 }, [1]];

/**
 * filter values no row can have, by parameter name (NetBox answers these 400, or this service does:
 * docs/api-differences.md, "Strict input")
 */
const BAD_FILTERS: Record<string, string> = {
  created: 'notadate',
  created__gte: '2020-13-45',
  last_updated: 'xyz',
  tag: `no-such-tag-${process.pid}`,
  // no network has 129 bits of mask (99 is an IPv6 length, a value rows can have)
  mask_length: '129',
  family: '7',
  content_type_id: 'abc',
};

type Send = (method: string, path: string, body?: string) => Buffer;

function bodyCase(send: Send, cls: string, method: string, path: string, body: unknown, names: string[]): HostileCase {
  return {
    name: `${method} ${cls} ${JSON.stringify(body).slice(0, 60)}`,
    cls,
    names,
    bytes: send(method, path, JSON.stringify(body)),
  };
}

/**
 * The class cases of one endpoint. `detail` is an existing object's URL where the sweep has one:
 * writes that PATCH it test fields without the noise of missing required fields.
 */
export function fieldCases(send: Send, ep: Endpoint, detail: string | null): HostileCase[] {
  const out: HostileCase[] = [];
  for (const [param, value] of Object.entries(BAD_FILTERS)) {
    if (!ep.params.has(param)) continue;
    out.push({
      name: `GET ?${param}=${value}`,
      cls: `filter ${param}`,
      names: [param],
      bytes: send('GET', `${ep.path}?${param}=${value}`),
    });
  }
  const props = ep.body?.properties;
  if (!props) return out;
  // a write of one bad field: PATCH of an existing object, else a create (whose answer names the
  // bad field beside the required ones it lacks)
  const write = (cls: string, body: Record<string, unknown>, names: string[]) => {
    out.push(bodyCase(send, cls, 'POST', ep.path, body, names));
    if (detail) out.push(bodyCase(send, cls, 'PATCH', detail, body, names));
  };
  for (const [key, s] of Object.entries(props)) {
    if (key === 'tags') write('tags with a null', { tags: [null] }, ['tags']);
    else if (isRelated(s)) for (const v of BAD_RELATED) write('related object', { [key]: v }, [key]);
    else if (isRelatedList(s)) for (const v of BAD_MEMBERS) write('related list member', { [key]: [v] }, [key]);
    const generic = key.match(/^(\w+)_type$/)?.[1];
    const types = (s.enum as unknown[] | undefined)?.filter((t) => typeof t === 'string');
    if (generic && types?.length && props[`${generic}_id`]) {
      for (const id of [0, {}, 'abc', -1])
        write('generic relation', { [key]: types[0], [`${generic}_id`]: id }, [`${generic}_id`]);
    }
  }
  if (props.custom_fields) {
    write('custom fields', { custom_fields: 'x' }, ['custom_fields']);
    write('custom fields', { custom_fields: { no_such_custom_field: 1 } }, ['custom_fields', '__all__']);
  }
  const required = ep.body?.required ?? [];
  if (required.length) {
    out.push(bodyCase(send, 'required fields', 'POST', ep.path, {}, required));
    out.push(bodyCase(send, 'required fields', 'POST', ep.path, [{}, {}], required));
  }
  out.push({
    name: 'POST whitespace body',
    cls: 'required fields',
    names: ['non_field_errors'],
    bytes: send('POST', ep.path, ' '.repeat(60_000)),
  });
  return out;
}

/** whether an answer's JSON body names one of `names` (at its top level, or in an item of a list) */
export function namesOneOf(body: string, names: string[]): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return false;
  }
  const objects = Array.isArray(parsed) ? parsed : [parsed];
  return objects.some((o) => typeof o === 'object' && o !== null && names.some((n) => n in o));
}
