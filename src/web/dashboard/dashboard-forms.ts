/**
 * What the dashboard's form pages share: the sign-in check, a page with crumbs, and the one way
 * they change the dashboard: the user's row read locked, changed and written back in one
 * transaction through the store the API uses (apps/extras/dashboard-store.ts).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { dashboardOf, saveDashboard } from '../../apps/extras/dashboard-store.js';
import { inTransaction } from '../../core/crud/routes.js';
import { html, type HtmlValue } from '../html.js';
import { renderPage, sendPage } from '../layout.js';
import { type PageContext, pageWithMenu } from '../page-context.js';
import { dataOf, type Widget, widgetsOf } from './grid.js';

export type IdRequest = FastifyRequest<{ Params: { id: string } }>;

export const HOME = { label: 'Home', href: '/' };

export async function sendFormPage(
  request: FastifyRequest,
  reply: FastifyReply,
  title: string,
  body: HtmlValue | ((page: PageContext) => HtmlValue),
  status = 200,
) {
  const page = await pageWithMenu(request, reply);
  const content = typeof body === 'function' ? body(page) : body;
  return sendPage(reply, renderPage({ title, ...page, crumbs: [HOME, { label: title }], body: content }), status);
}

/**
 * Changes the signed-in user's dashboard in one transaction (its row read locked); `change`
 * answers null when the widget it looks for is not there, and then nothing is written (false).
 */
export async function changeWidgets(
  request: FastifyRequest,
  change: (widgets: Widget[]) => Widget[] | null,
): Promise<boolean> {
  const userId = request.rc.user!.id;
  return inTransaction(request.rc, async (trx) => {
    const next = change(widgetsOf(await dashboardOf(trx, userId, true)));
    if (next) await saveDashboard(trx, userId, dataOf(next));
    return next !== null;
  });
}

/** `change` for one widget by id: null when it is not there */
export const onWidget = (id: string, change: (widgets: Widget[]) => Widget[]) => (widgets: Widget[]) =>
  widgets.some((w) => w.id === id) ? change(widgets) : null;

export async function widgetById(request: IdRequest): Promise<Widget | undefined> {
  const widgets = widgetsOf(await dashboardOf(request.rc, request.rc.user!.id));
  return widgets.find((w) => w.id === request.params.id);
}

export const notFound = (request: FastifyRequest, reply: FastifyReply) =>
  sendFormPage(
    request,
    reply,
    'Widget not found',
    html`<h1>Widget not found</h1><p>No such widget on your dashboard. <a href="/">Back to the dashboard</a></p>`,
    404,
  );
