/**
 * What every model page shares: the crumbs (Home, the app, the model's list), the permission
 * checks that decide which buttons a user gets, an error answered as a page (a filter's 400, a
 * hidden object's 404, a refused action's 403), and URL building that keeps the list's state.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { hasPermission } from '../../core/auth/permissions.js';
import type { CustomFieldDef, RequestContext } from '../../core/context.js';
import { ApiError } from '../../core/errors.js';
import type { ModelDef } from '../../core/model/types.js';
import type { Query } from '../components/filter-form.js';
import { errorLines } from '../error-lines.js';
import { html, type HtmlValue } from '../html.js';
import { type Crumb, renderPage, sendPage } from '../layout.js';
import { appLabel, capitalize } from '../labels.js';
import { listPath } from '../navigation/menu.js';
import { pageWithMenu } from '../page-context.js';

export type { Query };

export function queryOf(request: FastifyRequest): Query {
  const out: Query = new Map();
  const i = request.url.indexOf('?');
  if (i < 0) return out;
  for (const [k, v] of new URLSearchParams(request.url.slice(i + 1))) out.set(k, [...(out.get(k) ?? []), v]);
  return out;
}

export function hrefOf(path: string, query: Query): string {
  const q = new URLSearchParams();
  for (const [k, vs] of query) for (const v of vs) if (v !== '') q.append(k, v);
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

export function objectPath(model: ModelDef, id: unknown): string {
  return `${listPath(model)}${Number(id)}/`;
}

export function modelCrumbs(model: ModelDef, ...more: Crumb[]): Crumb[] {
  return [
    { label: 'Home', href: '/' },
    // the app the pages are under (a model's ui.path may move them: the change log to /core/)
    { label: appLabel(listPath(model).split('/')[1] ?? model.app) },
    { label: capitalize(model.verboseNamePlural), href: listPath(model) },
    ...more,
  ];
}

export interface Can {
  view: boolean;
  add: boolean;
  change: boolean;
  delete: boolean;
}

/** the actions this user may take on the model (object constraints still apply per object) */
export async function can(rc: RequestContext, model: ModelDef): Promise<Can> {
  const writable = !model.readOnly;
  return {
    view: await hasPermission(rc, model, 'view'),
    add: writable && (await hasPermission(rc, model, 'add')),
    change: writable && (await hasPermission(rc, model, 'change')),
    delete: writable && (await hasPermission(rc, model, 'delete')),
  };
}

/** the model's custom fields, or none for a model that takes no custom fields */
export async function customFieldsOf(rc: RequestContext, model: ModelDef): Promise<CustomFieldDef[]> {
  return model.customFields ? rc.app.customFields(rc, model.name) : [];
}

export interface PageParts {
  title: string;
  crumbs: Crumb[];
  body: HtmlValue;
  status?: number;
  flash?: HtmlValue;
}

export async function sendModelPage(request: FastifyRequest, reply: FastifyReply, parts: PageParts) {
  const page = await pageWithMenu(request, reply);
  return sendPage(
    reply,
    renderPage({ ...page, title: parts.title, crumbs: parts.crumbs, body: parts.body, flash: parts.flash }),
    parts.status ?? 200,
  );
}

/** An error of the API's kinds as a page with its status: the same message a client would read. */
export async function sendErrorPage(request: FastifyRequest, reply: FastifyReply, err: unknown, crumbs: Crumb[]) {
  if (!(err instanceof ApiError) || err.statusCode >= 500) throw err;
  // not signed in and not allowed: sign in first, then come back here
  if (err.statusCode === 403 && !request.rc?.user)
    return reply.redirect(`/login/?next=${encodeURIComponent(request.url)}`);
  const title = err.statusCode === 404 ? 'Not found' : err.statusCode === 403 ? 'Not allowed' : 'Cannot show this';
  const lines = errorLines(err.body);
  return sendModelPage(request, reply, {
    title,
    crumbs,
    status: err.statusCode,
    body: html`<h1>${title}</h1><div class="alert" role="alert">${lines.map((l) => html`<p>${l}</p>`)}</div>`,
  });
}
