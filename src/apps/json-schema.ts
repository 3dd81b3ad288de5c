/**
 * A light check of a JSON Schema definition stored by a model (NetBox 4.3+ module type profiles,
 * 4.4 config context profiles: `utilities.jsonschema.validate_schema`). NetBox checks it against the
 * Draft 7 meta-schema; this checks the keywords whose shape a validator of the described data
 * relies on (type, properties, required, items, enum), and says which is wrong; schemaViolation
 * checks data against such a schema (module type attributes, config context data).
 */
import type { RequestContext } from '../core/context.js';
import { rowById } from '../core/crud/row-by-id.js';

const TYPES = new Set(['array', 'boolean', 'integer', 'null', 'number', 'object', 'string']);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function problemOf(schema: unknown, at: string): string | undefined {
  if (typeof schema === 'boolean') return undefined;
  if (!isObject(schema)) return `${at} is not of type 'object', 'boolean'`;
  const type = schema.type;
  if (type !== undefined) {
    const list = Array.isArray(type) ? type : [type];
    const bad = list.find((t) => typeof t !== 'string' || !TYPES.has(t));
    if (bad !== undefined || list.length === 0)
      return `${JSON.stringify(type)} is not valid under any of the given schemas`;
  }
  if (schema.required !== undefined) {
    const req = schema.required;
    if (!Array.isArray(req) || req.some((r) => typeof r !== 'string'))
      return `${JSON.stringify(req)} is not of type 'array' of strings`;
  }
  if (schema.enum !== undefined && !Array.isArray(schema.enum))
    return `${JSON.stringify(schema.enum)} is not of type 'array'`;
  if (schema.properties !== undefined) {
    if (!isObject(schema.properties)) return `${JSON.stringify(schema.properties)} is not of type 'object'`;
    for (const [k, sub] of Object.entries(schema.properties)) {
      const p = problemOf(sub, `properties.${k}`);
      if (p) return p;
    }
  }
  if (schema.items !== undefined && !Array.isArray(schema.items)) return problemOf(schema.items, 'items');
  return undefined;
}

/** The field error for a schema definition that is not one (null: no schema, accepted). */
export function jsonSchemaError(v: unknown): string | undefined {
  if (v === null) return undefined;
  if (!isObject(v)) return 'Invalid JSON schema definition: the schema must be an object.';
  const p = problemOf(v, 'schema');
  return p ? `Invalid JSON schema definition: ${p}` : undefined;
}

const typeOf = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v;
const fitsType = (v: unknown, t: string) => typeOf(v) === t || (t === 'number' && typeOf(v) === 'integer');
/** a value as Python prints it in jsonschema's messages */
const repr = (v: unknown): string =>
  typeof v === 'string'
    ? `'${v}'`
    : v === null
      ? 'None'
      : typeof v === 'boolean'
        ? v
          ? 'True'
          : 'False'
        : JSON.stringify(v);

/**
 * Where data breaks a schema, worded as Python's jsonschema words its first error ("'speed' is a
 * required property"), or undefined. A light validator of the keywords profiles use (type,
 * properties, required, enum, items, minimum/maximum, minLength/maxLength, pattern); others are
 * not checked.
 */
export function schemaViolation(data: unknown, schema: unknown): string | undefined {
  if (schema === false) return `False schema does not allow ${repr(data)}`;
  if (!isObject(schema)) return undefined;
  if (schema.type !== undefined) {
    const types = (Array.isArray(schema.type) ? schema.type : [schema.type]) as string[];
    if (!types.some((t) => fitsType(data, t))) return `${repr(data)} is not of type ${types.map(repr).join(', ')}`;
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(data)))
    return `${repr(data)} is not one of ${JSON.stringify(schema.enum)}`;
  if (typeof data === 'number') {
    if (typeof schema.minimum === 'number' && data < schema.minimum)
      return `${data} is less than the minimum of ${schema.minimum}`;
    if (typeof schema.maximum === 'number' && data > schema.maximum)
      return `${data} is greater than the maximum of ${schema.maximum}`;
  }
  if (typeof data === 'string') {
    if (typeof schema.minLength === 'number' && data.length < schema.minLength) return `${repr(data)} is too short`;
    if (typeof schema.maxLength === 'number' && data.length > schema.maxLength) return `${repr(data)} is too long`;
    if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(data))
      return `${repr(data)} does not match ${repr(schema.pattern)}`;
  }
  if (isObject(data)) {
    for (const r of Array.isArray(schema.required) ? schema.required : [])
      if (!(r in data)) return `'${r}' is a required property`;
    if (isObject(schema.properties))
      for (const [k, sub] of Object.entries(schema.properties)) {
        const p = k in data ? schemaViolation(data[k], sub) : undefined;
        if (p) return p;
      }
  }
  if (Array.isArray(data) && isObject(schema.items))
    for (const item of data) {
      const p = schemaViolation(item, schema.items);
      if (p) return p;
    }
  return undefined;
}

/** the schema of the profile `id` in `table` (a module type or config context profile), or null */
export async function profileSchema(rc: RequestContext, table: string, id: unknown): Promise<unknown> {
  return (await rowById(rc, table, id, ['schema']))?.schema ?? null;
}
