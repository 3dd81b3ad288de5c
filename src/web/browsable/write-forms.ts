/**
 * The browsable API's write forms, which work without JavaScript: a form can only GET or POST, so
 * each posts `application/x-www-form-urlencoded` with the JSON document in `_content` (http/
 * form-body.ts turns it into the request body) and the CSRF token, and names the method it stands
 * for in `?_method=` (method-override.ts). A list gets a POST form, an object one form whose PUT and
 * PATCH buttons post to their own `formaction`, and a DELETE form. Which forms appear follows the
 * route's Allow header, so read-only models and endpoints get none and any endpoint that takes a
 * POST (available-ips, ...) gets one.
 *
 * The text area starts as what the user would most likely send: on an object its writable form
 * (related objects as ids, read-only fields left out, from the model's FieldDefs), on a list a
 * skeleton of the model's required fields, after a failed write the text that was submitted.
 */
import type { FieldDef, ModelDef } from '../../core/model/types.js';
import { CONTENT_FIELD } from '../../http/form-body.js';
import { html, type Html } from '../html.js';
import { csrfField, type PageContext } from '../page-context.js';
import { METHOD_PARAM } from './method-override.js';

const NOT_WRITTEN = new Set(['computed', 'generic', 'password']);

function isWritable(f: FieldDef): boolean {
  return !f.readOnly && !f.writeOnly && !NOT_WRITTEN.has(f.kind);
}

/** A related object as it is written: its id (a nested object or a list of them). */
function asWritten(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(asWritten);
  if (value && typeof value === 'object' && 'id' in value) return (value as { id: unknown }).id;
  return value;
}

/** The object's representation as a body that PUT accepts back. */
export function writableForm(model: ModelDef, body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, f] of Object.entries(model.fields)) {
    if (!isWritable(f) || !(key in body)) continue;
    const v = body[key];
    if (f.kind === 'choice')
      out[key] = v && typeof v === 'object' && 'value' in v ? (v as { value: unknown }).value : v;
    else if (f.kind === 'fk' || f.kind === 'm2m') out[key] = asWritten(v);
    else out[key] = v;
  }
  if (model.tags && Array.isArray(body.tags)) out.tags = asWritten(body.tags);
  if (model.customFields && body.custom_fields && typeof body.custom_fields === 'object') {
    out.custom_fields = Object.fromEntries(Object.entries(body.custom_fields).map(([k, v]) => [k, asWritten(v)]));
  }
  return out;
}

const EMPTY_BY_KIND: Partial<Record<FieldDef['kind'], unknown>> = {
  string: '',
  text: '',
  slug: '',
  ipaddress: '',
  ipprefix: '',
  mac: '',
  contenttype: '',
  boolean: false,
  m2m: [],
  strings: [],
  integers: [],
  json: {},
};

/** A new object's body with the model's required fields to fill in. */
export function requiredSkeleton(model: ModelDef): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, f] of Object.entries(model.fields)) {
    if (!f.required || !isWritable(f)) continue;
    out[key] = f.default !== undefined ? f.default : (EMPTY_BY_KIND[f.kind] ?? null);
  }
  return out;
}

function textArea(content: string): Html {
  return html`<label for="api-content">Content (JSON)</label>
<textarea id="api-content" name="${CONTENT_FIELD}" rows="14" spellcheck="false">${content}</textarea>`;
}

/** The forms a page offers for the methods its route allows (writes only; a signed-in user). */
export function writeForms(opts: {
  path: string;
  allow: Set<string>;
  detail: boolean;
  content: string;
  page: PageContext;
}): Html {
  const { path, allow, page } = opts;
  const action = (method: string) => `${path}?${METHOD_PARAM}=${method}`;
  if (!opts.detail) {
    if (!allow.has('POST')) return html``;
    return html`<section class="panel write-form">
<h2>Create</h2>
<form method="post" action="${path}">
  ${csrfField(page)}
  ${textArea(opts.content)}
  <div class="actions"><button type="submit">POST</button></div>
</form>
</section>`;
  }
  const updates = ['PUT', 'PATCH'].filter((m) => allow.has(m));
  return html`${
    updates.length
      ? html`<section class="panel write-form">
<h2>Change</h2>
<form method="post" action="${action(updates.includes('PATCH') ? 'PATCH' : updates[0]!)}">
  ${csrfField(page)}
  ${textArea(opts.content)}
  <div class="actions">${updates.map((m) => html`<button type="submit" formaction="${action(m)}"${m === 'PUT' ? html` class="secondary"` : ''}>${m}</button>`)}</div>
  <p class="muted">PUT takes the whole object (every required field); PATCH changes only the fields given.</p>
</form>
</section>`
      : ''
  }
${
  allow.has('DELETE')
    ? html`<section class="panel write-form">
<form method="post" action="${action('DELETE')}">
  ${csrfField(page)}
  <input type="hidden" name="${CONTENT_FIELD}" value="">
  <button type="submit" class="danger" data-confirm="Delete this object?">DELETE</button>
</form>
</section>`
    : ''
}`;
}
