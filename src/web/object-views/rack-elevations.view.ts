/**
 * A rack's page: its front and rear elevations side by side under its attributes (NetBox: the
 * rack page's "Front" and "Rear" panels, dcim/rack.html), drawn inline so their links work under
 * the page's CSP (rack-drawings.ts), each with a link to the REST route's SVG to download.
 */
import { html } from '../html.js';
import type { ObjectPanel, ObjectView } from './index.js';
import { drawRacks, FACE_LABEL, svgHref } from './rack-drawings.js';
import { objectPath } from '../model-pages/page-shell.js';

const FACES = ['front', 'rear'] as const;

const elevationsPanel: ObjectPanel = {
  async render({ request, model, obj }) {
    const drawings = await drawRacks(request.rc, [obj], [...FACES], () => objectPath(model, obj.id));
    const faces = drawings.get(Number(obj.id));
    if (!faces) return '';
    return html`<section class="panel rack-elevations" aria-labelledby="rack-elevations-head">
  <h2 id="rack-elevations-head">Elevations</h2>
  <div class="elevations">${FACES.map(
    (face) => html`<figure class="elevation">
    <figcaption>${FACE_LABEL[face]}</figcaption>
    ${faces.get(face)}
    <p class="download"><a href="${svgHref(obj.id, face)}" download>Download SVG</a></p>
  </figure>`,
  )}</div>
</section>`;
  },
};

/** dcim.rack's view: the elevations panel */
export const RACK_VIEW: ObjectView = { panels: [elevationsPanel] };
