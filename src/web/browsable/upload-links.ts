/**
 * On an object's browsable page, links to the uploads that may hang off it (NetBox 3.7 shows an
 * object's image attachments on its page): one link per model that takes uploads (ModelDef.uploads)
 * through a generic relation able to point at this model, to that model's list filtered to this
 * object. Links only, no query: the page still shows exactly the JSON answer, plus navigation.
 */
import type { Registry } from '../../core/model/registry.js';
import type { ModelDef } from '../../core/model/types.js';
import { html, type Html } from '../html.js';

export function uploadLinks(registry: Registry, model: ModelDef, id: string): Html | string {
  const links = registry
    .genericReferencesTo(model.name)
    .filter(([source]) => source.uploads)
    .map(([source, key]) => {
      const { type, id: idField } = source.fields[key]!.generic!;
      const href = `/api/${source.app}/${source.path}/?${type}=${encodeURIComponent(model.name)}&${idField}=${encodeURIComponent(id)}`;
      return html`<a href="${href}">${source.verboseNamePlural[0]!.toUpperCase()}${source.verboseNamePlural.slice(1)}</a>`;
    });
  return links.length ? html`<p class="formats">Also: ${links}</p>` : '';
}
