/**
 * Adding a widget (`/dashboard/widgets/add/`, NetBox's DashboardWidgetAddView) and configuring
 * one (`/dashboard/widgets/<id>/configure/`): its type chosen by a GET form (the config fields
 * follow it without JavaScript), then title, colour, width and the type's own fields. Bad input
 * answers 400 with the form, its messages and the values as typed; nothing is written.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { html } from '../html.js';
import { renderPage, sendPage } from '../layout.js';
import { csrfField, pageWithMenu } from '../page-context.js';
import {
  classChooser,
  type FormErrors,
  type FormValues,
  formValuesOf,
  readWidgetForm,
  widgetFormFields,
} from './config-form.js';
import { changeWidgets, HOME, notFound, onWidget, sendFormPage, widgetById } from './dashboard-forms.js';
import { requireSignIn } from '../pages/signed-in.js';
import { widgetTitle } from './dashboard.page.js';
import { newWidgetId, type Widget } from './grid.js';
import { widgetClass, type WidgetClass } from './widget-classes.js';

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

/** a widget of a class this service does not know (a plugin's, written through the API): no form, a way out */
function unknownClass(request: FastifyRequest, reply: FastifyReply, w: Widget) {
  return sendFormPage(
    request,
    reply,
    'Unknown widget',
    html`<h1>Unknown widget</h1><p>This widget's type (${w.class ?? 'none'}) has no settings here; you may <a href="/dashboard/widgets/${w.id}/delete/">remove it</a>.</p>`,
    400,
  );
}

export function registerWidgetFormPages(app: FastifyInstance): void {
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
    if (!cls) return unknownClass(request, reply, w);
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
    if (!cls) return unknownClass(request, reply, w);
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
}
