/**
 * What a circuit termination ends at (NetBox 4.2): a generic relation to a region, site group,
 * site, location or provider network, shown in the 4.4 dialect, where `site` and
 * `provider_network` are hidden. NetBox 3.4's two fields stay stored and shown in 3.4, as NetBox
 * 4.4 caches them (`_site`, `_provider_network`): the site, a location's site, or the provider
 * network; a region or site group shows neither there (lossy, as 3.4 cannot say it).
 *
 * Writes take either shape in both dialects: a termination sets site / provider_network; a site
 * or provider network that differs from the stored one sets the termination (both written back
 * unchanged, as a 3.4 PUT does, leave a location or region alone). Both shapes sent: the
 * termination wins.
 */
import type { RequestContext } from '../../core/context.js';
import type { CustomFilter, FieldDef, Row } from '../../core/model/types.js';
import { scopeFilters, siteOfScope } from '../dcim/scope.js';

/** NetBox 4.4 CIRCUIT_TERMINATION_TERMINATION_TYPES */
const TERMINATION_TYPES = ['dcim.region', 'dcim.sitegroup', 'dcim.site', 'dcim.location', 'circuits.providernetwork'];

/** termination_type, termination_id and the read-only termination, shown in 4.4 */
export function terminationFields(): Record<string, FieldDef> {
  return {
    termination_type: { kind: 'contenttype', types: TERMINATION_TYPES, dialect: '4.4' },
    termination_id: { kind: 'integer', min: 0, dialect: '4.4' },
    // a place deleted under a termination: its site or provider network protects it as in 3.4;
    // a region, site group or location is cleared from it rather than deleting it (NetBox 4.4 cascades)
    termination: {
      kind: 'generic',
      generic: { type: 'termination_type', id: 'termination_id' },
      onDelete: 'set_null',
      dialect: '4.4',
    },
  };
}

const same = (a: unknown, b: unknown) => (a == null ? null : Number(a)) === (b == null ? null : Number(b));

/** Puts the termination and site / provider_network of `data` in step (module comment), in place. */
export async function syncTermination(
  rc: RequestContext,
  data: Row,
  before: Row | null,
  sent: ReadonlySet<string>,
): Promise<void> {
  const merged = { ...(before ?? {}), ...data };
  if (sent.has('termination_type') || sent.has('termination_id')) {
    data.site_id = await siteOfScope(rc, merged.termination_type, merged.termination_id);
    data.provider_network_id =
      merged.termination_type === 'circuits.providernetwork' ? (merged.termination_id ?? null) : null;
    return;
  }
  if (!sent.has('site') && !sent.has('provider_network')) return;
  if (before && same(before.site_id, merged.site_id) && same(before.provider_network_id, merged.provider_network_id))
    return;
  // both set is refused by the validate hook (3.4's message); the site is taken meanwhile
  const [type, id] =
    merged.site_id != null
      ? ['dcim.site', merged.site_id]
      : merged.provider_network_id != null
        ? ['circuits.providernetwork', merged.provider_network_id]
        : [null, null];
  data.termination_type = type;
  data.termination_id = id;
}

/** NetBox 4.4 CircuitTerminationFilterSet: region, site_group and location (by slug and id) through the termination */
export const terminationPlaceFilters = (): Record<string, CustomFilter> =>
  scopeFilters(['region', 'site_group', 'location'], { type: 'termination_type', id: 'termination_id' });
