/**
 * The dashboard's forms at NetBox's paths (extras/urls.py): adding and configuring a widget
 * (widget-form.pages.ts), removing one (`/dashboard/widgets/<id>/delete/`, a confirmation page),
 * `/dashboard/reset/`, and our `/dashboard/widgets/<id>/move/` (NetBox drags with gridstack; here
 * a POST button moves a widget one place earlier or later, or to either end). Each change is one
 * transaction (dashboard-forms.ts changeWidgets), then a 303 to `/`.
 */
import type { FastifyInstance } from 'fastify';
import { dashboardOf, deleteDashboard } from '../../apps/extras/dashboard-store.js';
import { inTransaction } from '../../core/crud/routes.js';
import { html } from '../html.js';
import { csrfField } from '../page-context.js';
import { changeWidgets, notFound, onWidget, sendFormPage, widgetById } from './dashboard-forms.js';
import { requireSignIn } from '../pages/signed-in.js';
import { widgetTitle } from './dashboard.page.js';
import { MOVES, type Move, moved } from './grid.js';
import { registerWidgetFormPages } from './widget-form.pages.js';

export function registerWidgetPages(app: FastifyInstance): void {
  registerWidgetFormPages(app);
  const signedIn = { preHandler: requireSignIn };

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
    return reply.redirect(`/#w-${encodeURIComponent(request.params.id)}`, 303);
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
