/**
 * "Next available" on a prefix (and an IP range): `<object>/next-available/?length=24` finds the
 * first free block of that length, `?address` the first free address, and sends the browser to the
 * add form pre-filled with it (VRF, site and tenant carried over as NetBox's buttons do), or says
 * plainly that none is left. What is free is what the REST available-prefixes / available-ips
 * routes compute (apps/ipam/allocators.ts), read only when asked, never on every page. A hidden
 * tab (no badge, no link in the head): a plain GET form works without JavaScript.
 */
import type { RequestContext } from '../../core/context.js';
import { Errors } from '../../core/errors.js';
import type { ModelDef, Row } from '../../core/model/types.js';
import { format, formatAddress, type IpValue, maxLength } from '../../core/net/ip.js';
import {
  type AddressSpace,
  prefixAddressSpace,
  prefixFreeSpace,
  rangeAddressSpace,
} from '../../apps/ipam/allocators.js';
import { cidrBlocks, firstFree } from '../../apps/ipam/available.js';
import type { Represented } from '../components/cells.js';
import { html, type Html } from '../html.js';
import { listPath } from '../navigation/menu.js';
import { can, objectPath, queryOf } from '../model-pages/page-shell.js';
import type { ObjectTab, ViewInput } from './index.js';

const idOf = (v: unknown) => ((v as Row | null)?.id as number | undefined) ?? null;
const choiceOf = (v: unknown) => ((v as Row | null)?.value as string | undefined) ?? v;

/** the stored columns the allocators read, from the object as its page shows it */
const prefixRow = (obj: Represented): Row => ({
  id: obj.id,
  prefix: obj.prefix,
  vrf_id: idOf(obj.vrf),
  status: choiceOf(obj.status),
  is_pool: obj.is_pool === true,
  mark_utilized: obj.mark_utilized === true,
});

const rangeRow = (obj: Represented): Row => ({
  id: obj.id,
  start_address: obj.start_address,
  end_address: obj.end_address,
  vrf_id: idOf(obj.vrf),
});

/** the child lengths offered first: a /24 in IPv4, a /64 in IPv6, else the next longer */
function defaultLength(net: IpValue): number {
  const usual = net.family === 4 ? 24 : 64;
  return usual > net.prefixLength ? usual : net.prefixLength + 1;
}

/** the form on the child prefixes tab; nothing for a prefix that cannot hold a longer one */
export function nextPrefixForm(model: ModelDef, obj: Represented, net: IpValue): Html | '' {
  const max = maxLength(net.family);
  if (net.prefixLength >= max) return '';
  const chosen = defaultLength(net);
  const lengths = Array.from({ length: max - net.prefixLength }, (_, i) => net.prefixLength + 1 + i);
  return html`<form method="get" action="${objectPath(model, obj.id)}next-available/">
  <label for="next-length">Next available prefix of length</label>
  <select id="next-length" name="length">${lengths.map((n) => html`<option value="${n}"${n === chosen ? html` selected` : ''}>/${n}</option>`)}</select>
  <button type="submit" class="button">Add</button>
</form>`;
}

/** the link on the IP addresses tab */
export function nextAddressLink(model: ModelDef, obj: Represented): Html {
  return html`<a class="button" href="${objectPath(model, obj.id)}next-available/?address=1">Add next available IP</a>`;
}

export function nextAvailableTab(kind: 'prefix' | 'range'): ObjectTab {
  return {
    slug: 'next-available',
    label: 'Next available',
    // never listed in the head: reached from the forms above
    count: async () => null,
    render: (input) => renderNext(kind, input),
  };
}

function addressAdd(rc: RequestContext, space: AddressSpace, obj: Represented, address: string, back: string) {
  const q = new URLSearchParams({ address });
  if (space.vrfId !== null) q.set('vrf', String(space.vrfId));
  const tenant = idOf(obj.tenant);
  if (tenant !== null) q.set('tenant', String(tenant));
  q.set('return_url', back);
  return `${listPath(rc.app.registry.get('ipam.ipaddress'))}add/?${q.toString()}`;
}

function prefixAdd(rc: RequestContext, obj: Represented, prefix: string, back: string) {
  const q = new URLSearchParams({ prefix });
  for (const k of ['vrf', 'site', 'tenant']) {
    const id = idOf(obj[k]);
    if (id !== null) q.set(k, String(id));
  }
  q.set('return_url', back);
  return `${listPath(rc.app.registry.get('ipam.prefix'))}add/?${q.toString()}`;
}

const nothing = (message: string, back: string, label: string) =>
  html`<div class="alert" role="alert"><p>${message}</p></div><p><a href="${back}">Back to ${label}</a></p>`;

async function renderNext(kind: 'prefix' | 'range', { request, reply, model, obj }: ViewInput): Promise<Html> {
  const rc = request.rc;
  const query = queryOf(request);
  const base = objectPath(model, obj.id);
  const name = String(obj.display ?? obj.id);
  const rawLength = query.get('length')?.[0];
  const making = rc.app.registry.get(kind === 'prefix' && rawLength !== undefined ? 'ipam.prefix' : 'ipam.ipaddress');
  // what is free, hidden objects included, is for those who may add there
  if (!(await can(rc, making)).add) throw Errors.permissionDenied();
  if (kind === 'prefix' && rawLength !== undefined) {
    const back = `${base}prefixes/`;
    const { net, free } = await prefixFreeSpace(rc, prefixRow(obj));
    const length = Number(rawLength);
    if (!/^\d{1,3}$/.test(rawLength) || length <= net.prefixLength || length > maxLength(net.family))
      return nothing(
        `A child of ${name} needs a prefix length from ${net.prefixLength + 1} to ${maxLength(net.family)}, not "${rawLength.slice(0, 20)}".`,
        back,
        'the child prefixes',
      );
    const block = cidrBlocks(free, net.family).find((b) => b.prefixLength <= length);
    if (!block) return nothing(`No free /${length} is left in ${name}.`, back, 'the child prefixes');
    reply.redirect(
      prefixAdd(rc, obj, format({ family: net.family, value: block.value, prefixLength: length }), back),
      303,
    );
    return html``;
  }
  const back = `${base}ip-addresses/`;
  const space =
    kind === 'prefix' ? await prefixAddressSpace(rc, prefixRow(obj)) : await rangeAddressSpace(rc, rangeRow(obj));
  const [first] = firstFree(space.free, 1);
  if (first === undefined) return nothing(`No free address is left in ${name}.`, back, 'the IP addresses');
  reply.redirect(addressAdd(rc, space, obj, `${formatAddress(space.family, first)}/${space.prefixLength}`, back), 303);
  return html``;
}
