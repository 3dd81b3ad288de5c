/**
 * `/search/?q=`: the `q` search of every inventory model that declares searchable fields, a few results per
 * model with links to their pages and to the full filtered list. Only models the user may
 * view are searched.
 */
import type { FastifyInstance } from 'fastify';
import { hasPermission } from '../../core/auth/permissions.js';
import type { AppContext } from '../../core/context.js';
import { listObjects } from '../../core/crud/read.js';
import type { ModelDef } from '../../core/model/types.js';
import { html, type Html } from '../html.js';
import { renderPage, sendPage } from '../layout.js';
import { capitalize } from '../labels.js';
import { localPath, pageWithMenu } from '../page-context.js';
import { objectHref } from '../components/cells.js';

const PER_MODEL = 5;

export function registerSearchPage(app: FastifyInstance, ctx: AppContext): void {
  app.get<{ Querystring: { q?: string } }>('/search/', async (request, reply) => {
    const rc = request.rc;
    const q = (request.query.q ?? '').trim().slice(0, 200);
    const sections: Html[] = [];
    let total = 0;
    if (q) {
      // the inventory itself: not the records about it (change log, content types) nor accounts
      const searchable: ModelDef[] = ctx.registry
        .all()
        .filter((m) => m.search.length > 0 && !m.readOnly && m.app !== 'users');
      for (const m of searchable) {
        if (!(await hasPermission(rc, m, 'view'))) continue;
        const params = new Map([
          ['q', [q]],
          ['limit', [String(PER_MODEL)]],
          ['brief', ['true']],
        ]);
        const page = await listObjects(rc, m, params);
        if (!page.count) continue;
        total += page.count;
        const more = `/${m.app}/${m.path}/?q=${encodeURIComponent(q)}`;
        sections.push(html`<section class="panel">
  <h2>${capitalize(m.verboseNamePlural)} <span class="muted">(${page.count})</span></h2>
  <ul>${page.results.map((r) => html`<li><a href="${objectHref(r.url) ?? localPath(r.url, rc.baseUrl)}">${String(r.display ?? r.name ?? r.id)}</a></li>`)}</ul>
  ${page.count > PER_MODEL ? html`<a href="${more}">All ${page.count} ${m.verboseNamePlural}</a>` : ''}
</section>`);
      }
    }
    const page = await pageWithMenu(request, reply);
    const body = html`<h1>Search</h1>
<form class="panel" method="get" action="/search/" role="search">
  <label for="search-q">Search for</label>
  <input type="search" id="search-q" name="q" value="${q}">
</form>
${q ? html`<p class="muted">${total} result${total === 1 ? '' : 's'} for “${q}”.</p>` : ''}
${sections}`;
    return sendPage(
      reply,
      renderPage({
        title: q ? `Search: ${q}` : 'Search',
        ...page,
        crumbs: [{ label: 'Home', href: '/' }, { label: 'Search' }],
        body,
      }),
    );
  });
}
