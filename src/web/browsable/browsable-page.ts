/**
 * One browsable API page, made from what the JSON client would have received (status, headers,
 * body) and the registry (model found from the URL): title and breadcrumbs, the request and
 * response lines with the key headers, the body pretty-printed with its URLs as links, a "JSON"
 * link, and for lists and objects the controls and write forms. No per-model page code.
 */
import { STATUS_CODES } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Registry } from '../../core/model/registry.js';
import { CONTENT_FIELD } from '../../http/form-body.js';
import { signInUrl } from '../../http/request-context.js';
import { APPS } from '../../http/root.routes.js';
import { isPlainObject } from '../../core/crud/parse-field.js';
import { errorLines } from '../error-lines.js';
import { html, type Html } from '../html.js';
import { renderPage } from '../layout.js';
import { pageContext } from '../page-context.js';
import { crumbsOf, locate, titleOf, type ApiLocation } from './api-location.js';
import { jsonView } from './json-view.js';
import { listControls } from './list-controls.js';
import { joinUrl, splitUrl, type Pairs } from './query-string.js';
import { uploadLinks } from './upload-links.js';
import { requiredSkeleton, writableForm, writeForms } from './write-forms.js';

const WRITE_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'];
/** the response headers DRF's page shows, as the JSON response carries them */
const SHOWN_HEADERS = ['Allow', 'Content-Type', 'Location', 'Vary'];

export interface ApiResponse {
  status: number;
  /** the JSON response's headers, before the page replaced its Content-Type */
  headers: Record<string, string | undefined>;
  /** the parsed JSON body, or undefined when there was none (204) */
  body: unknown;
  /** an object's custom links (custom-links.ts) */
  customLinks?: Html | '';
}

function responseHead(request: FastifyRequest, res: ApiResponse): Html {
  const lines = SHOWN_HEADERS.filter((h) => res.headers[h.toLowerCase()]).map(
    (h) => `${h}: ${res.headers[h.toLowerCase()]}`,
  );
  return html`<div class="response-head"><strong>${request.method} ${request.url}</strong>

HTTP ${res.status} ${STATUS_CODES[res.status] ?? ''}
${lines.join('\n')}</div>`;
}

/** The text the write form starts with (write-forms.ts). */
function formContent(request: FastifyRequest, loc: ApiLocation, res: ApiResponse): string {
  const submitted = request.formFields?.[CONTENT_FIELD];
  if (submitted !== undefined && res.status >= 400) return submitted;
  if (loc.kind === 'detail' && isPlainObject(res.body))
    return JSON.stringify(writableForm(loc.model, res.body), null, 2);
  if (loc.kind === 'list') return JSON.stringify(requiredSkeleton(loc.model), null, 2);
  return '{}';
}

/** Links to this URL as JSON (DRF's format link) and, on a list, with brief toggled; a read's page only. */
function formatLinks(path: string, pairs: Pairs, loc: ApiLocation): Html {
  const without = (name: string) => pairs.filter(([k]) => k !== name);
  const json = joinUrl(path, [...without('format'), ['format', 'json']]);
  let brief: Html | string = '';
  if (loc.kind === 'list') {
    const on = pairs.some(([k, v]) => k === 'brief' && ['true', '1', 'True'].includes(v));
    const rest = without('brief').filter(([k]) => k !== 'offset');
    brief = html` · <a href="${joinUrl(path, on ? rest : [...rest, ['brief', 'true']])}">${on ? 'Full' : 'Brief'}</a>`;
  }
  return html`<p class="formats">View as <a href="${json}" type="application/json">JSON</a>${brief}</p>`;
}

/** What an anonymous visitor is told: sign in to see what was refused, or to change what is shown. */
function signInHint(here: string, status: number, offerForms: boolean, loc: ApiLocation): Html | string {
  if (status === 401 || status === 403)
    return html`<p class="panel"><a href="${signInUrl(here)}">Sign in</a> to see this.</p>`;
  if (offerForms)
    return html`<p class="panel muted"><a href="${signInUrl(here)}">Sign in to change</a> this ${loc.kind === 'detail' ? 'object' : 'list'}.</p>`;
  return '';
}

export function renderBrowsablePage(
  request: FastifyRequest,
  reply: FastifyReply,
  registry: Registry,
  res: ApiResponse,
): string {
  const page = pageContext(request, reply);
  const { path, pairs } = splitUrl(request.url);
  const loc = locate(registry, path, APPS);
  const failed = res.status >= 400;
  const title = titleOf(loc, failed ? null : res.body);
  const allow = new Set(
    (res.headers.allow ?? '')
      .split(',')
      .map((m) => m.trim())
      .filter(Boolean),
  );
  const writable = WRITE_METHODS.some((m) => allow.has(m));
  const isList =
    loc.kind === 'list' && res.status === 200 && isPlainObject(res.body) && Array.isArray(res.body.results);
  // forms after a read that worked, or to correct a write that did not
  const offerForms = writable && (!failed || request.formFields !== null);
  const errors = failed && request.formFields !== null ? errorLines(res.body) : [];

  const body = html`<h1>${title}</h1>
${res.customLinks ?? ''}
${loc.kind === 'list' || loc.kind === 'detail' ? html`<p class="muted">${loc.model.name}${loc.model.description ? html` · ${loc.model.description}` : ''}</p>` : ''}
${errors.length ? html`<div class="errors" role="alert"><strong>The request was refused (HTTP ${res.status}).</strong><ul>${errors.map((e) => html`<li>${e}</li>`)}</ul></div>` : ''}
${isList && loc.kind === 'list' ? listControls(loc.model, path, pairs, res.body as Record<string, unknown>, request.rc?.baseUrl ?? '') : ''}
<section class="panel response">
${responseHead(request, res)}
${request.method === 'GET' || request.method === 'HEAD' ? formatLinks(path, pairs, loc) : ''}
${loc.kind === 'detail' && res.status === 200 ? uploadLinks(registry, loc.model, loc.id) : ''}
${res.body === undefined ? html`<p class="muted">No content.</p>` : jsonView(res.body, request.rc?.baseUrl ?? '')}
</section>
${offerForms && page.user ? writeForms({ path, allow, detail: loc.kind === 'detail' || (loc.kind === 'other' && !allow.has('POST')), content: formContent(request, loc, res), page }) : ''}
${page.user ? '' : signInHint(page.here, res.status, offerForms, loc)}`;
  return renderPage({ title, ...page, crumbs: crumbsOf(registry, path, title), body, mainClass: 'wide' });
}
