/**
 * `POST <list>table-config/`: a user's columns for a model's table, kept in their preferences at
 * NetBox's path (`tables.SiteTable.columns`): the checked columns in order, one moved up or down,
 * or the model's defaults again. Then back to the list as it was (a same-site `return_url` only).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../core/context.js';
import { Errors } from '../../core/errors.js';
import type { ModelDef } from '../../core/model/types.js';
import { uiOf } from '../model-ui.js';
import { listPath } from '../navigation/menu.js';
import { safeNext } from '../page-context.js';
import { setPref } from '../user-prefs.js';
import { selectableColumns } from './list.page.js';
import { modelCrumbs, sendErrorPage } from './page-shell.js';

export async function saveTableConfig(ctx: AppContext, model: ModelDef, request: FastifyRequest, reply: FastifyReply) {
  const rc = request.rc;
  const form = request.formValues ?? new Map<string, string[]>();
  try {
    if (!rc.user) throw Errors.notAuthenticated();
    const key = uiOf(ctx.registry, model).tableKey;
    if (form.get('reset')?.length) await setPref(rc, key, undefined);
    else {
      const all = new Set(await selectableColumns(request, model));
      const chosen = [...new Set(form.get('columns') ?? [])].filter((c) => all.has(c));
      if (!chosen.length) throw Errors.validation({ columns: ['Choose at least one column.'] });
      move(chosen, form.get('up')?.[0], -1);
      move(chosen, form.get('down')?.[0], 1);
      await setPref(rc, key, chosen);
    }
    const back = safeNext(form.get('return_url')?.[0]);
    return reply.redirect(back === '/' ? listPath(model) : back, 303);
  } catch (err) {
    return sendErrorPage(request, reply, err, modelCrumbs(model));
  }
}

function move(cols: string[], key: string | undefined, by: -1 | 1): void {
  const i = key ? cols.indexOf(key) : -1;
  const j = i + by;
  if (i < 0 || j < 0 || j >= cols.length) return;
  [cols[i], cols[j]] = [cols[j]!, cols[i]!];
}
