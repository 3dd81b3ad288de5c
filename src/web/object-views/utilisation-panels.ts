/**
 * The utilisation panel on a prefix's, an aggregate's and an IP range's page: the meter
 * (components/meter.ts) with what NetBox counts for that kind of object (utilisation.ts), one
 * statement.
 */
import type { RequestContext } from '../../core/context.js';
import { panel } from '../components/panels.js';
import { utilisationMeter } from '../components/meter.js';
import { html } from '../html.js';
import type { ObjectPanel } from './index.js';
import { aggregateUtilisation, prefixUtilisation, rangeUtilisation } from './utilisation.js';

type Measure = (rc: RequestContext, id: number) => Promise<number>;

const MEASURES: Record<'prefix' | 'aggregate' | 'range', Measure> = {
  prefix: async (rc, id) => (await prefixUtilisation(rc, [id])).get(id) ?? 0,
  aggregate: aggregateUtilisation,
  range: rangeUtilisation,
};

export function utilisationPanel(kind: keyof typeof MEASURES): ObjectPanel {
  return {
    async render({ request, obj }) {
      const pct = await MEASURES[kind](request.rc, Number(obj.id));
      const name = String(obj.display ?? obj.id);
      return panel(
        'Utilisation',
        html`<p class="utilisation">${utilisationMeter(pct, `Utilisation of ${name}`)}</p>`,
        'utilisation-panel',
      );
    },
  };
}
