/**
 * `/`: what is in the inventory (the objects per app and model the user may view, each linking to
 * its browsable list), the ways in (browsable API, Swagger UI, GraphiQL once it exists), and the
 * search box. Made from the registry: a model added later appears without page code.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../core/context.js';
import { countObjects } from '../../core/crud/read.js';
import type { ModelDef } from '../../core/model/types.js';
import { APPS } from '../../http/root.routes.js';
import { html, type Html } from '../html.js';
import { renderPage, sendPage } from '../layout.js';
import { appLabel, capitalize } from '../labels.js';
import { pageWithMenu } from '../page-context.js';

function appPanel(app: string, rows: Array<[ModelDef, number]>): Html {
  return html`<section class="panel">
  <h2><a href="/api/${app}/">${appLabel(app)}</a></h2>
  <table>${rows.map(
    ([m, n]) =>
      html`<tr><td><a href="/api/${m.app}/${m.path}/">${capitalize(m.verboseNamePlural)}</a></td><td class="num">${n.toLocaleString('en')}</td></tr>`,
  )}</table>
</section>`;
}

export function registerHomePage(app: FastifyInstance, ctx: AppContext, links: { graphiql: () => boolean }): void {
  app.get('/', { exposeHeadRoute: true }, async (request, reply) => {
    const rc = request.rc;
    const panels: Html[] = [];
    for (const a of APPS) {
      const rows: Array<[ModelDef, number]> = [];
      for (const m of ctx.registry.appModels(a)) {
        const n = await countObjects(rc, m);
        if (n !== null) rows.push([m, n]);
      }
      if (rows.length) panels.push(appPanel(a, rows));
    }
    const page = await pageWithMenu(request, reply);
    const body = html`<h1>Inventory</h1>
<div class="panel">
  <form method="get" action="/search/" role="search">
    <label for="home-q">Search sites, racks, devices, addresses, prefixes, VLANs, circuits...</label>
    <input type="search" id="home-q" name="q" placeholder="Name, address, description...">
  </form>
  <p class="muted">Browse <a href="/api/">the REST API</a> · <a href="/api/schema/swagger-ui/">Swagger UI</a> · <a href="/api/schema/">OpenAPI document</a>${links.graphiql() ? html` · <a href="/graphql/">GraphiQL</a>` : ''}${rc.user ? html` · <a href="/user/api-tokens/">your API tokens</a>` : html` · <a href="/login/">sign in</a> to make changes`}${rc.user?.is_superuser ? html` · <a href="/core/background-tasks/">background tasks</a>` : ''}</p>
</div>
${panels.length ? html`<div class="grid">${panels}</div>` : html`<p class="muted">Sign in to see the inventory.</p>`}`;
    return sendPage(reply, renderPage({ title: 'Home', ...page, body }));
  });
}
