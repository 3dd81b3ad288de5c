/**
 * Every registered model's pages, at NetBox's UI paths (the REST paths without `/api`): one set of
 * generic page kinds, no page code per model (model-pages/README.md). Registered after the API and
 * the other pages, so their routes keep their paths.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../core/context.js';
import type { ModelDef } from '../../core/model/types.js';
import { knowModels } from '../components/object-table.js';
import { listPath } from '../navigation/menu.js';
import { changelogPage } from './changelog.page.js';
import { deletePage, postDelete } from './delete.page.js';
import { addPage, editPage, postAdd, postEdit } from './edit.page.js';
import { journalPage, postJournalEntry } from './journal.page.js';
import { listPage } from './list.page.js';
import { objectPage } from './object.page.js';
import { saveTableConfig } from './table-config.js';

type IdRequest = FastifyRequest<{ Params: { id: string } }>;

/** models whose pages would show nothing a person manages (content types, synced files) */
const WITHOUT_PAGES = new Set(['extras.contenttype', 'core.datafile', 'dcim.cabletermination']);

export function hasPages(model: ModelDef): boolean {
  return !WITHOUT_PAGES.has(model.name);
}

export function registerModelPages(app: FastifyInstance, ctx: AppContext): void {
  knowModels(ctx.registry.all());
  for (const model of ctx.registry.all()) {
    if (!hasPages(model)) continue;
    const base = listPath(model);
    const page = { exposeHeadRoute: true };
    app.get(base, page, (request, reply) => listPage(ctx, model, request, reply));
    app.post(`${base}table-config/`, (request, reply) => saveTableConfig(ctx, model, request, reply));
    app.get(`${base}:id/`, page, (request: IdRequest, reply: FastifyReply) => objectPage(ctx, model, request, reply));
    if (!model.readOnly) {
      app.get(`${base}add/`, page, (request, reply) => addPage(ctx, model, request, reply));
      app.post(`${base}add/`, (request, reply) => postAdd(ctx, model, request, reply));
      app.get(`${base}:id/edit/`, page, (request: IdRequest, reply) => editPage(ctx, model, request, reply));
      app.post(`${base}:id/edit/`, (request: IdRequest, reply) => postEdit(ctx, model, request, reply));
      app.get(`${base}:id/delete/`, page, (request: IdRequest, reply) => deletePage(ctx, model, request, reply));
      app.post(`${base}:id/delete/`, (request: IdRequest, reply) => postDelete(ctx, model, request, reply));
    }
    if (model.changelog) {
      app.get(`${base}:id/changelog/`, page, (request: IdRequest, reply) => changelogPage(ctx, model, request, reply));
      if (ctx.registry.find('extras.journalentry')) {
        app.get(`${base}:id/journal/`, page, (request: IdRequest, reply) => journalPage(ctx, model, request, reply));
        app.post(`${base}:id/journal/`, (request: IdRequest, reply) => postJournalEntry(ctx, model, request, reply));
      }
    }
  }
}
