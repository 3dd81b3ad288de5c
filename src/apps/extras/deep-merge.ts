/**
 * The merge NetBox 3.4 applies to config context data (utilities.utils.deepmerge), restated:
 * keys of `later` override those of `earlier`, except that two objects under one key are merged
 * recursively. An empty object, a list or a scalar in `later` replaces whatever was there. Key order
 * is that of `earlier`, new keys appended. Neither argument is modified.
 */
export type JsonObject = Record<string, unknown>;

export function isJsonObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function deepMerge(earlier: JsonObject, later: JsonObject): JsonObject {
  const out: JsonObject = { ...earlier };
  for (const [key, value] of Object.entries(later)) {
    const before = Object.hasOwn(out, key) ? out[key] : undefined;
    // NetBox 3.4 recurses only into a non-empty object
    const merged =
      isJsonObject(before) && isJsonObject(value) && Object.keys(value).length > 0 ? deepMerge(before, value) : value;
    // a "__proto__" key in stored JSON is data: define it, never run the prototype setter
    if (key === '__proto__')
      Object.defineProperty(out, key, { value: merged, enumerable: true, writable: true, configurable: true });
    else out[key] = merged;
  }
  return out;
}
