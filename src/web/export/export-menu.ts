/**
 * The list page's Export control: a `<details>` menu (no JavaScript needed) of links to the list's
 * current URL with `export=table` ("Current view"), `export` ("All data") and `export=<name>` for
 * each export template of the model the user may view. The links keep the filters and the sort.
 */
import { hasPermission } from '../../core/auth/permissions.js';
import type { RequestContext } from '../../core/context.js';
import { listObjects } from '../../core/crud/read.js';
import type { ModelDef } from '../../core/model/types.js';
import { html, type Html } from '../html.js';
import { hrefOf, type Query } from '../model-pages/page-shell.js';

/** the names of the model's export templates, those the user may see (none without the permission) */
async function templateNames(rc: RequestContext, model: ModelDef): Promise<string[]> {
  const templates = rc.app.registry.find('extras.exporttemplate');
  if (!templates || !(await hasPermission(rc, templates, 'view'))) return [];
  const params = new Map([
    ['content_types', [model.name]],
    ['brief', ['true']],
    ['limit', ['100']],
  ]);
  const list = (await listObjects(rc, templates, params)) as { results: Array<{ name?: unknown }> };
  return [...new Set(list.results.map((t) => String(t.name)))];
}

export async function exportMenu(rc: RequestContext, model: ModelDef, path: string, query: Query): Promise<Html> {
  const base: Query = new Map([...query].filter(([k]) => k !== 'page' && k !== 'per_page' && k !== 'export'));
  const link = (kind: string, label: string) => {
    const href = hrefOf(path, base);
    const param = kind ? `export=${encodeURIComponent(kind)}` : 'export';
    return html`<li><a href="${href}${href.includes('?') ? '&' : '?'}${param}" download>${label}</a></li>`;
  };
  const names = await templateNames(rc, model);
  return html`<details class="export-menu"><summary class="button">Export</summary><ul>
${link('table', 'Current view')}${link('', 'All data')}${names.map((n) => link(n, n))}
</ul></details>`;
}
