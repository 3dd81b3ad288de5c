/**
 * Every registered model's pages, at NetBox's UI paths (the REST paths without `/api`): one set of
 * generic page kinds, no page code per model (model-pages/README.md). Registered after the API and
 * the other pages, so their routes keep their paths.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../core/context.js';
import { Errors } from '../../core/errors.js';
import type { Registry } from '../../core/model/registry.js';
import type { ModelDef } from '../../core/model/types.js';
import { knowModels } from '../components/object-table.js';
import { uiOf } from '../model-ui.js';
import { listPath } from '../navigation/menu.js';
import { postAddComponents } from './bulk/add-components.page.js';
import { postBulkDelete } from './bulk/bulk-delete.page.js';
import { postBulkEdit } from './bulk/bulk-edit.page.js';
import { postBulkRename, renamable } from './bulk/bulk-rename.page.js';
import { changelogPage } from './changelog.page.js';
import { deletePage, postDelete } from './delete.page.js';
import { addPage, editPage, postAdd, postEdit } from './edit.page.js';
import { importPage, postImport } from './import.page.js';
import { journalPage, postJournalEntry } from './journal.page.js';
import { postListExport } from '../export/list-export.js';
import { columnsFor, listPage } from './list.page.js';
import { objectPage } from './object.page.js';
import { saveTableConfig } from './table-config.js';
import { tabPage } from './tab.page.js';

/** models whose pages would show nothing a person manages (content types, synced files) */
const WITHOUT_PAGES = new Set(['extras.contenttype', 'core.datafile', 'dcim.cabletermination']);

export function hasPages(model: ModelDef): boolean {
  return !WITHOUT_PAGES.has(model.name);
}

/** the import routes' URLs as registered (one per app), which take multipart bodies (an uploaded file) */
export function importRouteUrls(registry: Registry): string[] {
  const apps = new Set(
    registry
      .all()
      .filter(hasPages)
      .map((m) => m.app),
  );
  return [...apps].map((a) => `/${a}/:models/import/`);
}

type PageRequest = FastifyRequest<{ Params: { models: string; id: string; tab: string } }>;
type Page = (ctx: AppContext, model: ModelDef, request: PageRequest, reply: FastifyReply) => unknown;
type Need = (model: ModelDef, ctx: AppContext) => boolean;

const writable: Need = (m) => !m.readOnly;
const logged: Need = (m) => m.changelog;
const journaled: Need = (m, ctx) => m.changelog && ctx.registry.find('extras.journalentry') !== undefined;

/**
 * One route per app and page kind, not per model: `/<app>/:models/...` finds the model by its UI path (a map
 * lookup) or answers 404. Registering each model's own routes made ~1,000 routes, and
 * their contexts cost every request of the service (single creates ran 10 % slower with them).
 * Static routes (`/api/...`, `/login/`, `/user/...`) still win over these.
 */
export function registerModelPages(app: FastifyInstance, ctx: AppContext): void {
  knowModels(ctx.registry.all());
  const byPath = new Map<string, ModelDef>();
  for (const model of ctx.registry.all()) if (hasPages(model)) byPath.set(listPath(model), model);
  // by the path's first segment, which is the app's unless the hints moved the pages (`/core/changelog/`)
  const apps = new Set([...byPath.keys()].map((p) => p.split('/')[1]!));
  for (const [path, model] of byPath) for (const former of model.ui?.formerPaths ?? []) redirectTo(app, former, path);
  const route = (method: 'GET' | 'POST', url: string, page: Page, need?: Need) => {
    // under each app's own first segment, so a path of no app stays unrouted (404, or 405 by method)
    for (const appName of apps)
      app.route({
        method,
        url: `/${appName}/:models/${url}`,
        exposeHeadRoute: method === 'GET',
        handler: (request: PageRequest, reply: FastifyReply) => {
          const model = byPath.get(`/${appName}/${request.params.models}/`);
          // what no model or page kind serves is a 404 as an unrouted path is (http/not-found.ts)
          if (!model || (need && !need(model, ctx))) throw Errors.notFound();
          // the pages name fields by their keys, NetBox 3.4's names, whatever the deployment's dialect,
          // and show every field of both dialects (a rack's `type` and `rack_type`): README.md
          request.rc.dialect = '3.4';
          request.rc.everyField = true;
          return page(ctx, model, request, reply);
        },
      });
  };
  route('GET', '', listPage);
  route('POST', 'table-config/', saveTableConfig);
  // the selection form's export of the checked rows (web/export/list-export.ts)
  route('POST', '', (ctx, model, request, reply) =>
    postListExport(model, request, reply, () => columnsFor(ctx, request, model)),
  );
  route('GET', ':id/', objectPage);
  route('POST', 'edit/', postBulkEdit, writable);
  route('POST', 'delete/', postBulkDelete, writable);
  route('POST', 'rename/', postBulkRename, (m) => writable(m, ctx) && renamable(m));
  // `/dcim/devices/interfaces/add/`: the component kind in the place of an id
  route('POST', ':id/add/', postAddComponents, (m) => uiOf(ctx.registry, m).components.length > 0);
  route('GET', 'import/', importPage, writable);
  route('POST', 'import/', postImport, writable);
  route('GET', 'add/', addPage, writable);
  route('POST', 'add/', postAdd, writable);
  route('GET', ':id/edit/', editPage, writable);
  route('POST', ':id/edit/', postEdit, writable);
  route('GET', ':id/delete/', deletePage, writable);
  route('POST', ':id/delete/', postDelete, writable);
  route('GET', ':id/changelog/', changelogPage, logged);
  route('GET', ':id/journal/', journalPage, journaled);
  route('POST', ':id/journal/', postJournalEntry, journaled);
  // a related list or a view (object-views/); the static segments above win over `:tab`
  route('GET', ':id/:tab/', tabPage);
}

/**
 * A moved list's former path and everything under it answer 301 to the same place under the new
 * one, query kept (NetBox 4.1 serves `/core/changelog/`; bookmarks of `/extras/changelog/?user_id=`
 * and of a change's page still lead there)
 */
function redirectTo(app: FastifyInstance, former: string, path: string): void {
  app.get(`${former}*`, (request, reply) => {
    const rest = request.url.slice(former.length);
    return reply.redirect(`${path}${rest}`, 301);
  });
}
