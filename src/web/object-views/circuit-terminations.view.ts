/**
 * A circuit's page shows its A and Z terminations: where each lands (site or provider network),
 * its speeds and cross-connect, the cable and what is at the other end of it, with the row's
 * Connect, Trace and Disconnect (row-extras.ts). One list read for both sides. NetBox: the circuit
 * page's Termination A / Termination Z panels.
 */
import { listObjects } from '../../core/crud/read.js';
import type { Represented } from '../components/cells.js';
import { objectTable } from '../components/object-table.js';
import { panel } from '../components/panels.js';
import { html } from '../html.js';
import { listPath } from '../navigation/menu.js';
import { can, objectPath, queryOf, hrefOf } from '../model-pages/page-shell.js';
import type { ObjectView } from './index.js';
import { rowExtras } from './row-extras.js';

const COLUMNS = [
  'term_side',
  'site',
  'provider_network',
  'port_speed',
  'upstream_speed',
  'xconnect_id',
  'cable',
  'link_peers',
];

export const CIRCUIT_VIEW: ObjectView = {
  panels: [
    {
      async render({ request, model, obj }) {
        const rc = request.rc;
        const terms = rc.app.registry.find('circuits.circuittermination');
        if (!terms || !(await can(rc, terms)).view) return '';
        const list = await listObjects(
          rc,
          terms,
          new Map([
            ['circuit_id', [String(obj.id)]],
            ['ordering', ['term_side']],
          ]),
        );
        const rows = list.results as Represented[];
        const back = hrefOf(objectPath(model, obj.id), queryOf(request));
        const extras = await rowExtras(rc, terms, rows, COLUMNS, back);
        const sides = new Set(rows.map((r) => (r.term_side as { value?: string } | string | null) ?? ''));
        const missing = ['A', 'Z'].filter((s) => ![...sides].some((v) => (typeof v === 'object' ? v?.value : v) === s));
        const add = (await can(rc, terms)).add
          ? missing.map(
              (side) =>
                html` <a class="button small" href="${listPath(terms)}add/?${new URLSearchParams({ circuit: String(obj.id), term_side: side, return_url: back }).toString()}">Add termination ${side}</a>`,
            )
          : [];
        return panel(
          'Terminations',
          html`${objectTable({
            model: terms,
            rows,
            sortable: new Set(),
            sort: '',
            sortHref: () => back,
            href: (row) => objectPath(terms, row.id),
            ...extras,
          })}${add.length ? html`<p>${add}</p>` : ''}`,
        );
      },
    },
  ],
};
