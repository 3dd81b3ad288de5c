/**
 * `/`: the signed-in user's dashboard (NetBox 3.6 HomeView with get_dashboard): their widgets from
 * the same row `/api/extras/dashboard/` reads and writes (apps/extras/dashboard-store.ts), in
 * their order and widths on a 12-column grid, each with its buttons to configure, move and
 * remove it (widget-pages.ts; plain forms, no JavaScript needed). A visitor who is not signed in
 * (LOGIN_REQUIRED off) sees the default dashboard, read-only, as NetBox shows it. The search box
 * and the ways into the API stay on top.
 */
import type { FastifyInstance } from 'fastify';
import { defaultDashboard } from '../../apps/extras/dashboard-default.js';
import { dashboardOf } from '../../apps/extras/dashboard-store.js';
import type { RequestContext } from '../../core/context.js';
import { inTransaction } from '../../core/crud/routes.js';
import { attrs, html, type Html } from '../html.js';
import { renderPage, sendPage } from '../layout.js';
import { csrfField, type PageContext, pageWithMenu } from '../page-context.js';
import { type Widget, widgetsOf } from './grid.js';
import { widgetContent } from './render-widget.js';
import { WIDGET_COLORS, widgetClass } from './widget-classes.js';

/** the title a widget shows: its own, else its class's (NetBox's default_title) */
export function widgetTitle(w: Widget): string {
  return w.title || (widgetClass(w.class)?.label ?? 'Unknown widget');
}

function widgetTools(page: PageContext, w: Widget, i: number, n: number): Html {
  const title = widgetTitle(w);
  const base = `/dashboard/widgets/${encodeURIComponent(w.id)}`;
  const move = (to: string, label: string, text: string, off: boolean) =>
    html`<button class="link-button" type="submit" name="move" value="${to}"${attrs({ disabled: off, 'aria-label': `${label} ${title}` })}>${text}</button>`;
  return html`<div class="widget-tools">
<form class="inline" method="post" action="${base}/move/">${csrfField(page)}${move('up', 'Move earlier:', 'Earlier', i === 0)} ${move('down', 'Move later:', 'Later', i === n - 1)}</form>
<a href="${base}/configure/"${attrs({ 'aria-label': `Configure ${title}` })}>Configure</a>
<a href="${base}/delete/"${attrs({ 'aria-label': `Remove ${title}` })}>Remove</a>
</div>`;
}

async function widgetPanel(rc: RequestContext, page: PageContext, w: Widget, i: number, n: number): Promise<Html> {
  const known = widgetClass(w.class) !== undefined;
  const classes = [
    'panel',
    'widget',
    `span-${w.w}`,
    (WIDGET_COLORS as readonly string[]).includes(w.color ?? '') ? `widget-${w.color}` : '',
    known ? '' : 'muted',
  ];
  const headingId = `widget-${i}`;
  return html`<section${attrs({ class: classes.filter(Boolean).join(' '), id: `w-${w.id}`, 'aria-labelledby': headingId })}>
<div class="widget-head"><h2 id="${headingId}">${widgetTitle(w)}</h2>${rc.user ? widgetTools(page, w, i, n) : ''}</div>
${await widgetContent(rc, w)}
</section>`;
}

export function registerDashboardPage(app: FastifyInstance, links: { graphiql: () => boolean }): void {
  app.get('/', { exposeHeadRoute: true }, async (request, reply) => {
    const rc = request.rc;
    const user = rc.user;
    // a visitor sees the default dashboard, made afresh and not stored (NetBox's get_dashboard)
    const data = user ? await inTransaction(rc, (trx) => dashboardOf(trx, user.id)) : defaultDashboard();
    const widgets = widgetsOf(data);
    const page = await pageWithMenu(request, reply);
    const panels: Html[] = [];
    for (const [i, w] of widgets.entries()) panels.push(await widgetPanel(rc, page, w, i, widgets.length));
    const body = html`<div class="page-head"><h1>Inventory</h1>${
      user
        ? html`<div class="actions"><a class="button primary" href="/dashboard/widgets/add/">Add widget</a> <a class="button" href="/dashboard/reset/">Reset dashboard</a></div>`
        : ''
    }</div>
<div class="panel">
  <form method="get" action="/search/" role="search">
    <label for="home-q">Search sites, racks, devices, addresses, prefixes, VLANs, circuits...</label>
    <input type="search" id="home-q" name="q" placeholder="Name, address, description...">
  </form>
  <p class="muted">Browse <a href="/api/">the REST API</a> · <a href="/api/schema/swagger-ui/">Swagger UI</a> · <a href="/api/schema/">OpenAPI document</a>${links.graphiql() ? html` · <a href="/graphql/">GraphiQL</a>` : ''}${user ? html` · <a href="/user/api-tokens/">your API tokens</a>` : html` · <a href="/login/?next=%2F">sign in</a> to make changes and keep your own dashboard`}${user?.is_superuser ? html` · <a href="/core/background-tasks/">background tasks</a>` : ''}</p>
</div>
${panels.length ? html`<div class="dashboard">${panels}</div>` : html`<p class="muted">Your dashboard is empty: <a href="/dashboard/widgets/add/">add a widget</a>.</p>`}`;
    return sendPage(reply, renderPage({ title: 'Home', ...page, body }));
  });
}
