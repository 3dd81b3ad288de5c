/**
 * The dashboard's forms at NetBox's paths (extras/urls.py): `/dashboard/widgets/add/`,
 * `/dashboard/widgets/<id>/configure/`, `/dashboard/widgets/<id>/delete/` (a confirmation page),
 * `/dashboard/reset/`, and our `/dashboard/widgets/<id>/move/` (NetBox drags with gridstack; here
 * a POST button moves a widget one place earlier or later, or to either end). Every change reads
 * the user's row locked, changes it and writes it back in one transaction through the store the
 * API uses (apps/extras/dashboard-store.ts), then answers 303 to `/`. A form with bad input
 * answers 400 with its messages and the values as typed.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { dashboardOf, deleteDashboard, saveDashboard } from '../../apps/extras/dashboard-store.js';
import type { AppContext } from '../../core/context.js';
import { inTransaction } from '../../core/crud/routes.js';
import { signInUrl } from '../../http/request-context.js';
import { html, type HtmlValue } from '../html.js';
import { renderPage, sendPage } from '../layout.js';
import { csrfField, type PageContext, pageWithMenu } from '../page-context.js';
import {
  classChooser,
  type FormErrors,
  type FormValues,
  formValuesOf,
  readWidgetForm,
  widgetFormFields,
} from './config-form.js';
import { widgetTitle } from './dashboard.page.js';
import { dataOf, MOVES, type Move, moved, newWidgetId, type Widget, widgetsOf } from './grid.js';
import { widgetClass, type WidgetClass } from './widget-classes.js';

type IdRequest = FastifyRequest<{ Params: { id: string } }>;

const HOME = { label: 'Home', href: '/' };

async function requireSignIn(request: FastifyRequest, reply: FastifyReply) {
  if (!request.rc.user) return reply.redirect(signInUrl(request.url), 302);
}

async function sendFormPage(
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
async function changeWidgets(
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
const onWidget = (id: string, change: (widgets: Widget[]) => Widget[]) => (widgets: Widget[]) =>
  widgets.some((w) => w.id === id) ? change(widgets) : null;

async function widgetById(request: IdRequest): Promise<Widget | undefined> {
  const widgets = widgetsOf(await dashboardOf(request.rc, request.rc.user!.id));
  return widgets.find((w) => w.id === request.params.id);
}

const notFound = (request: FastifyRequest, reply: FastifyReply) =>
  sendFormPage(
    request,
    reply,
    'Widget not found',
    html`<h1>Widget not found</h1><p>No such widget on your dashboard. <a href="/">Back to the dashboard</a></p>`,
    404,
  );

async function formPage(
  request: FastifyRequest,
  reply: FastifyReply,
  o: {
    title: string;
    action: string;
    cls: WidgetClass;
    values: FormValues;
    errors: FormErrors;
    top?: string[];
    chooser: boolean;
  },
  status = 200,
) {
  const page = await pageWithMenu(request, reply);
  const registry = request.rc.app.registry;
  const top = [...(o.top ?? []), ...(Object.keys(o.errors).length ? ['Please correct the errors below.'] : [])];
  const body = html`<h1>${o.title}</h1>
${top.length ? html`<div class="errors" role="alert">${top.map((e) => html`<div>${e}</div>`)}</div>` : ''}
${o.chooser ? classChooser(o.cls) : ''}
<form class="panel" method="post" action="${o.action}">
${csrfField(page)}
${widgetFormFields(registry, o.cls, o.values, o.errors)}
<div class="actions"><button class="primary" type="submit">Save</button> <a class="button" href="/">Cancel</a></div>
</form>`;
  return sendPage(reply, renderPage({ title: o.title, ...page, crumbs: [HOME, { label: o.title }], body }), status);
}

export function registerWidgetPages(app: FastifyInstance, _ctx: AppContext): void {
  const signedIn = { preHandler: requireSignIn };
  const ADD = '/dashboard/widgets/add/';

  app.get(ADD, signedIn, async (request, reply) => {
    const wanted = new URL(request.url, 'http://x').searchParams.get('widget_class') ?? 'extras.NoteWidget';
    const cls = widgetClass(wanted);
    if (!cls)
      return formPage(
        request,
        reply,
        {
          title: 'Add a widget',
          action: ADD,
          cls: widgetClass('extras.NoteWidget')!,
          values: formValuesOf(widgetClass('extras.NoteWidget')!, {}),
          errors: {},
          top: [`Unknown widget type: ${wanted}`],
          chooser: true,
        },
        400,
      );
    return formPage(request, reply, {
      title: 'Add a widget',
      action: ADD,
      cls,
      values: formValuesOf(cls, {}),
      errors: {},
      chooser: true,
    });
  });

  app.post(ADD, signedIn, async (request, reply) => {
    const values: FormValues = request.formValues ?? new Map();
    const name = values.get('widget_class')?.[0] ?? '';
    const cls = widgetClass(name);
    if (!cls) {
      const note = widgetClass('extras.NoteWidget')!;
      return formPage(
        request,
        reply,
        {
          title: 'Add a widget',
          action: ADD,
          cls: note,
          values: formValuesOf(note, {}),
          errors: {},
          top: [`Unknown widget type: ${name}`],
          chooser: true,
        },
        400,
      );
    }
    const read = readWidgetForm(request.rc.app.registry, cls, values);
    if (!read.settings)
      return formPage(
        request,
        reply,
        { title: 'Add a widget', action: ADD, cls, values, errors: read.errors, chooser: true },
        400,
      );
    const widget: Widget = { id: newWidgetId(), class: cls.name, h: cls.height, ...read.settings };
    await changeWidgets(request, (ws) => [...ws, widget]);
    return reply.redirect('/', 303);
  });

  app.get<{ Params: { id: string } }>('/dashboard/widgets/:id/configure/', signedIn, async (request, reply) => {
    const w = await widgetById(request);
    if (!w) return notFound(request, reply);
    const cls = widgetClass(w.class);
    if (!cls)
      return sendFormPage(
        request,
        reply,
        'Unknown widget',
        html`<h1>Unknown widget</h1><p>This widget's type (${w.class ?? 'none'}) has no settings here; you may <a href="/dashboard/widgets/${w.id}/delete/">remove it</a>.</p>`,
        400,
      );
    return formPage(request, reply, {
      title: `Configure ${widgetTitle(w)}`,
      action: request.url,
      cls,
      values: formValuesOf(cls, w),
      errors: {},
      chooser: false,
    });
  });

  app.post<{ Params: { id: string } }>('/dashboard/widgets/:id/configure/', signedIn, async (request, reply) => {
    const w = await widgetById(request);
    if (!w) return notFound(request, reply);
    const cls = widgetClass(w.class);
    if (!cls)
      return sendFormPage(
        request,
        reply,
        'Unknown widget',
        html`<h1>Unknown widget</h1><p>This widget's type has no settings here.</p>`,
        400,
      );
    const values: FormValues = request.formValues ?? new Map();
    const read = readWidgetForm(request.rc.app.registry, cls, values);
    if (!read.settings)
      return formPage(
        request,
        reply,
        { title: `Configure ${widgetTitle(w)}`, action: request.url, cls, values, errors: read.errors, chooser: false },
        400,
      );
    const settings = read.settings;
    const changed = await changeWidgets(
      request,
      onWidget(w.id, (ws) => ws.map((x) => (x.id === w.id ? { ...x, ...settings } : x))),
    );
    // removed meanwhile (another tab, the API)
    if (!changed) return notFound(request, reply);
    return reply.redirect('/', 303);
  });

  app.get<{ Params: { id: string } }>('/dashboard/widgets/:id/delete/', signedIn, async (request, reply) => {
    const w = await widgetById(request);
    if (!w) return notFound(request, reply);
    const title = widgetTitle(w);
    return sendFormPage(
      request,
      reply,
      'Remove a widget',
      (page) => html`<h1>Remove ${title}?</h1>
<form class="panel" method="post" action="${request.url}">${csrfField(page)}
<p>The widget <strong>${title}</strong> will be removed from your dashboard.</p>
<div class="actions"><button class="danger" type="submit">Remove</button> <a class="button" href="/">Cancel</a></div>
</form>`,
    );
  });

  app.post<{ Params: { id: string } }>('/dashboard/widgets/:id/delete/', signedIn, async (request, reply) => {
    const id = request.params.id;
    if (
      !(await changeWidgets(
        request,
        onWidget(id, (ws) => ws.filter((w) => w.id !== id)),
      ))
    )
      return notFound(request, reply);
    return reply.redirect('/', 303);
  });

  app.post<{ Params: { id: string } }>('/dashboard/widgets/:id/move/', signedIn, async (request, reply) => {
    const to = request.formFields?.move as Move | undefined;
    if (!to || !MOVES.includes(to))
      return sendFormPage(
        request,
        reply,
        'Move a widget',
        html`<h1>Move a widget</h1><p class="errors" role="alert">Choose where to move it: ${MOVES.join(', ')}.</p><p><a href="/">Back to the dashboard</a></p>`,
        400,
      );
    const id = request.params.id;
    if (
      !(await changeWidgets(
        request,
        onWidget(id, (ws) => moved(ws, id, to)),
      ))
    )
      return notFound(request, reply);
    return reply.redirect(`/#w-${request.params.id}`, 303);
  });

  app.get('/dashboard/reset/', signedIn, async (request, reply) => {
    return sendFormPage(
      request,
      reply,
      'Reset the dashboard',
      (page) => html`<h1>Reset your dashboard?</h1>
<form class="panel" method="post" action="/dashboard/reset/">${csrfField(page)}
<p>Every widget you added, changed or moved is replaced by the default dashboard.</p>
<div class="actions"><button class="danger" type="submit">Reset</button> <a class="button" href="/">Cancel</a></div>
</form>`,
    );
  });

  // NetBox's DashboardResetView deletes the row; the next read stores a fresh default (here at once)
  app.post('/dashboard/reset/', signedIn, async (request, reply) => {
    const userId = request.rc.user!.id;
    await inTransaction(request.rc, async (trx) => {
      await deleteDashboard(trx, userId);
      await dashboardOf(trx, userId);
    });
    return reply.redirect('/', 303);
  });
}
