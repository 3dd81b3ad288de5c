/**
 * `/`: the dashboard. The objects per menu group and model the user may view (each linking to its
 * list page), the latest changes, the user's bookmarks, the search box and the ways into the API.
 * Made from the registry and the menu: a model added later appears without page code.
 */
import type { FastifyInstance } from 'fastify';
import { hasPermission } from '../../core/auth/permissions.js';
import type { AppContext } from '../../core/context.js';
import type { RequestContext } from '../../core/context.js';
import { countObjects, listObjects } from '../../core/crud/read.js';
import { cell, objectHref, type Represented } from '../components/cells.js';
import { html, type Html } from '../html.js';
import { renderPage, sendPage } from '../layout.js';
import { menuFor } from '../navigation/menu.js';
import { pageWithMenu } from '../page-context.js';

const LATEST = 10;

async function countPanels(rc: RequestContext): Promise<Html[]> {
  const panels: Html[] = [];
  for (const menu of await menuFor(rc)) {
    const rows: Html[] = [];
    for (const g of menu.groups) {
      for (const item of g.items) {
        if (!item.isList) continue;
        const n = await countObjects(rc, item.model);
        if (n !== null)
          rows.push(
            html`<tr><td><a href="${item.href}">${item.label}</a></td><td class="num">${n.toLocaleString('en')}</td></tr>`,
          );
      }
    }
    if (rows.length) panels.push(html`<section class="panel"><h2>${menu.label}</h2><table>${rows}</table></section>`);
  }
  return panels;
}

async function latestChanges(rc: RequestContext): Promise<Html | ''> {
  const changes = rc.app.registry.find('extras.objectchange');
  if (!changes || !(await hasPermission(rc, changes, 'view'))) return '';
  const page = await listObjects(rc, changes, new Map([['limit', [String(LATEST)]]]));
  const rows = page.results as Represented[];
  return html`<section class="panel"><h2>Latest changes</h2>${
    rows.length
      ? html`<table>${rows.map((c) => {
          const target = c.changed_object as Represented | null;
          const href = target ? objectHref(target.url) : null;
          return html`<tr><td>${cell('time', c.time)}</td><td>${cell('action', c.action)}</td><td>${href ? html`<a href="${href}">${String(c.object_repr)}</a>` : String(c.object_repr)}</td><td>${String(c.user_name ?? '')}</td></tr>`;
        })}</table>`
      : html`<p class="muted">No changes yet.</p>`
  }</section>`;
}

async function bookmarks(rc: RequestContext): Promise<Html | ''> {
  const model = rc.app.registry.find('extras.bookmark');
  if (!model || !rc.user) return '';
  const page = await listObjects(
    rc,
    model,
    new Map([
      ['user_id', [String(rc.user.id)]],
      ['limit', ['20']],
    ]),
  );
  const rows = page.results as Represented[];
  return html`<section class="panel"><h2>Your bookmarks</h2>${
    rows.length
      ? html`<ul>${rows.map((b) => {
          const o = b.object as Represented | null;
          const href = o ? objectHref(o.url) : null;
          return html`<li>${href ? html`<a href="${href}">${String(o?.display ?? b.display)}</a>` : String(b.display)}</li>`;
        })}</ul>`
      : html`<p class="muted">None yet.</p>`
  }</section>`;
}

export function registerHomePage(app: FastifyInstance, _ctx: AppContext, links: { graphiql: () => boolean }): void {
  app.get('/', { exposeHeadRoute: true }, async (request, reply) => {
    const rc = request.rc;
    const panels = await countPanels(rc);
    const page = await pageWithMenu(request, reply);
    const body = html`<h1>Inventory</h1>
<div class="panel">
  <form method="get" action="/search/" role="search">
    <label for="home-q">Search sites, racks, devices, addresses, prefixes, VLANs, circuits...</label>
    <input type="search" id="home-q" name="q" placeholder="Name, address, description...">
  </form>
  <p class="muted">Browse <a href="/api/">the REST API</a> · <a href="/api/schema/swagger-ui/">Swagger UI</a> · <a href="/api/schema/">OpenAPI document</a>${links.graphiql() ? html` · <a href="/graphql/">GraphiQL</a>` : ''}${rc.user ? html` · <a href="/user/api-tokens/">your API tokens</a>` : html` · <a href="/login/">sign in</a> to make changes`}${rc.user?.is_superuser ? html` · <a href="/core/background-tasks/">background tasks</a>` : ''}</p>
</div>
<div class="object-grid"><div class="col">${await latestChanges(rc)}</div><div class="col">${await bookmarks(rc)}</div></div>
${panels.length ? html`<div class="grid">${panels}</div>` : html`<p class="muted">Sign in to see the inventory.</p>`}`;
    return sendPage(reply, renderPage({ title: 'Home', ...page, body }));
  });
}
