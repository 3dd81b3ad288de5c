/**
 * A light check of a JSON Schema definition stored by a model (NetBox 4.3+ module type profiles,
 * 4.4 config context profiles: `utilities.jsonschema.validate_schema`). NetBox checks it against the
 * Draft 7 meta-schema; this checks the keywords whose shape a validator of the described data
 * relies on (type, properties, required, items, enum), and says which is wrong.
 */
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
