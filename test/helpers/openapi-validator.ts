/**
 * Checks a response against the service's own OpenAPI document: the operation for the method and
 * path must exist (a 405 for an undocumented method is the one allowed exception), the status must
 * be documented (or covered by `default`), and the body must validate against its schema (Ajv).
 * The contract suite runs every response it receives through this, so the document and the
 * behaviour cannot drift apart.
 */
import { createHash } from 'node:crypto';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

type Doc = {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>
  >;
};

// ajv-formats is CommonJS: its default export arrives wrapped under ESM
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv,
) => void;

const pointer = (...parts: string[]) =>
  parts.map((p) => encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');

export interface ResponseValidator {
  /** problems with the response, or an empty list */
  check(method: string, url: string, status: number, body: string): string[];
  /** operations seen, as `METHOD /path/template/` */
  readonly seen: Set<string>;
}

interface Compiled {
  ajv: Ajv;
  templates: Array<{ p: string; re: RegExp }>;
  validators: Map<string, ValidateFunction>;
}

/**
 * Compiled schemas by the document's digest, kept by the worker from one file to the next
 * (vitest.config.ts, isolate false): each contract file compiled the same schemas again, 2-3 s.
 */
const byDocument = new Map<string, Compiled>();

function compiledFor(doc: Doc): Compiled {
  const digest = createHash('sha256').update(JSON.stringify(doc)).digest('hex');
  let c = byDocument.get(digest);
  if (!c) {
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(doc as object, 'openapi');
    const templates = Object.keys(doc.paths).map((p) => ({
      p,
      re: new RegExp(`^${p.replace(/\{[^}]+\}/g, '[^/]+')}$`),
    }));
    c = { ajv, templates, validators: new Map() };
    byDocument.set(digest, c);
  }
  return c;
}

export function createResponseValidator(doc: Doc): ResponseValidator {
  const { ajv, templates, validators: compiled } = compiledFor(doc);
  const seen = new Set<string>();

  const check = (method: string, url: string, status: number, body: string): string[] => {
    const m = method.toLowerCase();
    if (m === 'head') return [];
    const path = new URL(url, 'http://x').pathname;
    const template = templates.find((t) => t.re.test(path))?.p;
    if (!template)
      return status === 404 ? [] : [`${method} ${path}: no such path in the document (answered ${status})`];
    const op = doc.paths[template]![m];
    if (!op) return status === 405 ? [] : [`${method} ${template}: not in the document (answered ${status})`];
    seen.add(`${method.toUpperCase()} ${template}`);
    const key = String(status) in op.responses ? String(status) : 'default';
    const response = op.responses[key];
    if (!response) return [`${method} ${template}: status ${status} is not documented`];
    const schema = response.content?.['application/json']?.schema;
    if (!schema)
      return body === ''
        ? []
        : [`${method} ${template} ${status}: the document says no body, got ${body.slice(0, 200)}`];
    let validate = compiled.get(`${m} ${template} ${key}`);
    if (!validate) {
      validate = ajv.compile({
        $ref: `openapi#/${pointer('paths', template, m, 'responses', key, 'content', 'application/json', 'schema')}`,
      });
      compiled.set(`${m} ${template} ${key}`, validate);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return [`${method} ${template} ${status}: body is not JSON`];
    }
    if (validate(parsed)) return [];
    return (validate.errors ?? [])
      .slice(0, 8)
      .map((e) => `${method} ${template} ${status}: ${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
  };
  return { check, seen };
}
