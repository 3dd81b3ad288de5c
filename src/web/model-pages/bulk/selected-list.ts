/** The objects a bulk page acts on, named (the first SHOWN_MAX) and counted. */
import type { ModelDef } from '../../../core/model/types.js';
import type { Represented } from '../../components/cells.js';
import { html, type Html } from '../../html.js';
import { objectPath } from '../page-shell.js';
import { nameOf, SHOWN_MAX } from './selection.js';

export function selectedList(
  model: ModelDef,
  ids: number[],
  objects: Map<number, Represented>,
  heading = 'Selected',
): Html {
  const more = ids.length - Math.min(ids.length, SHOWN_MAX);
  return html`<section class="panel selected-objects" aria-labelledby="selected-heading">
<h2 id="selected-heading">${heading} (${ids.length.toLocaleString('en')})</h2>
<ul class="columns">${ids.slice(0, SHOWN_MAX).map((id) => html`<li><a href="${objectPath(model, id)}">${nameOf(objects, model, id)}</a></li>`)}</ul>
${more > 0 ? html`<p class="muted">and ${more.toLocaleString('en')} more.</p>` : ''}
</section>`;
}
