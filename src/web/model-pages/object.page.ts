/**
 * An object's page (`/dcim/sites/3/`): read as the REST detail reads it (the user's view scope: a
 * hidden object is a 404), shown as panels: the model's field groups, what else the object shows
 * (counts, derived values), custom fields, tags, comments as Markdown, custom links, and the counts
 * of related objects, each a link to the list filtered by this object.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../core/context.js';
import { countObjects, getObject } from '../../core/crud/read.js';
import { parseId } from '../../core/crud/routes.js';
import type { ModelDef } from '../../core/model/types.js';
import { customLinksHtml } from '../browsable/custom-links.js';
import { cell, type Represented } from '../components/cells.js';
import { attributePanel, commentsPanel, customFieldPanel, panel, relatedPanel } from '../components/panels.js';
import { html } from '../html.js';
import { pageContext } from '../page-context.js';
import { uiOf } from '../model-ui.js';
import { capitalize } from '../labels.js';
import { listPath } from '../navigation/menu.js';
import { objectPanelsOf } from '../object-views/index.js';
import { objectHead } from './object-head.js';
import { customFieldsOf, modelCrumbs, sendErrorPage, sendModelPage } from './page-shell.js';

/** keys shown elsewhere on the page, or not at all */
const NOT_ATTRIBUTES = new Set([
  'id',
  'url',
  'display',
  'tags',
  'custom_fields',
  'comments',
  'created',
  'last_updated',
]);

/** the object as the REST detail shows it, or the API's error (404 when hidden) */
export async function readObject(request: FastifyRequest, model: ModelDef, rawId: string): Promise<Represented> {
  return (await getObject(request.rc, model, parseId(rawId), new Map())) as Represented;
}

export async function objectPage(
  ctx: AppContext,
  model: ModelDef,
  request: FastifyRequest<{ Params: { id: string } }>,
  reply: FastifyReply,
) {
  const rc = request.rc;
  const crumbs = modelCrumbs(model);
  try {
    const obj = await readObject(request, model, request.params.id);
    const ui = uiOf(ctx.registry, model);
    const grouped = new Set(ui.groups.flatMap((g) => g.fields));
    const others = Object.keys(obj).filter(
      (k) =>
        !grouped.has(k) &&
        !NOT_ATTRIBUTES.has(k) &&
        !model.fields[k]?.writeOnly &&
        !(k in model.counts && ui.related.length),
    );
    const related = [];
    for (const r of ui.related) {
      const other = ctx.registry.find(r.model);
      if (!other) continue;
      const n = await countObjects(rc, other, new Map([[r.param, [String(obj.id)]]]));
      if (n)
        related.push({
          label: r.label ?? capitalize(other.verboseNamePlural),
          href: `${listPath(other)}?${r.param}=${Number(obj.id)}`,
          count: n,
        });
    }
    related.sort((a, b) => a.label.localeCompare(b.label));
    const cfs = await customFieldsOf(rc, model);
    const links = await customLinksHtml(rc, model, obj);
    const wide = [];
    for (const p of objectPanelsOf(model)) wide.push(await p.render({ request, reply, model, obj }));
    const body = html`${await objectHead(rc, model, obj, 'object', pageContext(request, reply).csrfToken)}
<div class="object-grid">
  <div class="col">
    ${ui.groups.map((g) => attributePanel(model, g.title || (ui.groups.length === 1 ? capitalize(model.verboseName) : ''), g.fields, obj))}
    ${others.length ? attributePanel(model, 'Other', others, obj) : ''}
    ${model.customFields ? customFieldPanel(new Map(cfs.map((c) => [c.name, c.label])), obj.custom_fields as Represented) : ''}
    ${'comments' in model.fields ? commentsPanel(obj.comments) : ''}
  </div>
  <div class="col">
    ${links ? panel('Links', links) : ''}
    ${relatedPanel(related)}
    ${model.tags ? panel('Tags', cell('tags', obj.tags)) : ''}
    ${model.timestamps ? panel('', html`<p class="muted">Created ${cell('created', obj.created)} · Updated ${cell('last_updated', obj.last_updated)}</p>`) : ''}
  </div>
</div>
${wide}`;
    return sendModelPage(request, reply, {
      title: String(obj.display ?? obj.id),
      crumbs: [...crumbs, { label: String(obj.display ?? obj.id) }],
      body,
      flash: flashOf(request),
    });
  } catch (err) {
    return sendErrorPage(request, reply, err, crumbs);
  }
}

/** the confirmation a save redirected with (`?saved=created|updated`), shown once */
function flashOf(request: FastifyRequest): string | undefined {
  const q = request.query as Record<string, string | undefined>;
  return q.saved === 'created' ? 'Created.' : q.saved === 'updated' ? 'Saved.' : undefined;
}
