/**
 * An interface's radio fields (NetBox 3.4 Interface.clean() and save()): role, channel, frequency
 * and width only on wireless types; a channel fixes its frequency and width (a different figure
 * is an error, a missing one is filled in from the channel's value, "5g-36-5180-20"); and the
 * WWN, stored as eight upper-case hex octets joined by colons.
 */
import { sql } from 'kysely';
import type { RequestContext } from '../../core/context.js';
import { fetchRowsById } from '../../core/represent/load-related.js';
import { render } from '../../core/represent/render.js';
import { WIRELESS_INTERFACE_TYPES } from './choices.js';

type Row = Record<string, unknown>;

export const WWN = { regex: /^([0-9A-Fa-f]{2}[:.-]?){7}[0-9A-Fa-f]{2}$/, message: 'Enter a valid WWN (eight hexadecimal octets).' };

/** the frequency or width a channel value carries */
const channelAttr = (channel: string, attr: 'frequency' | 'width') => Number(channel.split('-')[attr === 'frequency' ? 2 : 3]);

export function validateRadio(data: Row): Record<string, string[]> {
  const wireless = WIRELESS_INTERFACE_TYPES.has(String(data.type));
  const channel = data.rf_channel ? String(data.rf_channel) : '';
  if (data.rf_role && !wireless) return { rf_role: ['Wireless role may be set only on wireless interfaces.'] };
  if (channel && !wireless) return { rf_channel: ['Channel may be set only on wireless interfaces.'] };
  for (const [field, attr, noun] of [['rf_channel_frequency', 'frequency', 'Channel frequency'], ['rf_channel_width', 'width', 'Channel width']] as const) {
    if (data[field] == null || Number(data[field]) === 0) continue;
    if (!wireless) return { [field]: [`${noun} may be set only on wireless interfaces.`] };
    if (channel && Number(data[field]) !== channelAttr(channel, attr)) return { [field]: [`Cannot specify custom ${attr} with channel selected.`] };
  }
  return {};
}

/** fills what the channel fixes, and writes the WWN in its stored form */
export function prepareRadio(data: Row): void {
  const channel = data.rf_channel ? String(data.rf_channel) : '';
  if (channel && data.rf_channel_frequency == null) data.rf_channel_frequency = channelAttr(channel, 'frequency');
  if (channel && data.rf_channel_width == null) data.rf_channel_width = channelAttr(channel, 'width');
  if (typeof data.wwn === 'string') {
    const hex = data.wwn.replace(/[^0-9A-Fa-f]/g, '').toUpperCase();
    data.wwn = hex ? hex.match(/../g)!.join(':') : null;
  }
}

/**
 * NetBox 3.4 Interface.link_peers / _occupied: an interface on a wireless link (and no cable) has
 * the link's other end as its peer, and is occupied. One statement for the page's links.
 */
export async function representWirelessPeers(rc: RequestContext, rows: Row[], out: Row[], mode: string): Promise<void> {
  const linked = rows.map((r, i) => [r, i] as const).filter(([r]) => r.wireless_link_id != null && r.cable_id == null);
  if (!linked.length || mode === 'nested') return;
  for (const [, i] of linked) out[i]!._occupied = true;
  if (mode !== 'full') return;
  const links = await sql<Row>`select id, interface_a_id, interface_b_id from wireless_wirelesslink
    where id = any(${linked.map(([r]) => Number(r.wireless_link_id))}::bigint[])`.execute(rc.q);
  const byId = new Map(links.rows.map((l) => [Number(l.id), l]));
  const peerOf = (r: Row) => {
    const l = byId.get(Number(r.wireless_link_id));
    if (!l) return undefined;
    return Number(l.interface_a_id) === Number(r.id) ? Number(l.interface_b_id) : Number(l.interface_a_id);
  };
  const model = rc.app.registry.get('dcim.interface');
  const peers = await render(rc, model, await fetchRowsById(rc, model, linked.map(([r]) => peerOf(r)).filter((x): x is number => x != null)), 'nested');
  const rendered = new Map(peers.map((p) => [Number(p.id), p]));
  for (const [r, i] of linked) {
    const peer = rendered.get(Number(peerOf(r)));
    if (!peer) continue;
    out[i]!.link_peers = [peer];
    out[i]!.link_peers_type = 'dcim.interface';
  }
}
