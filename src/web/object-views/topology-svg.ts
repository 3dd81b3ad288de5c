/**
 * A physical topology drawn server-side as SVG, laid out so it stays legible at 500 devices and
 * 5,000 cables without a force simulation (deterministic, linear in the devices and pairs):
 * - devices are grouped by rack, each rack a column, top of the rack first (position descending),
 *   devices without a rack in a last column by name; columns wrap into bands so the drawing stays
 *   near a readable aspect;
 * - a node is its device's name in its role's colour (text in black or white by contrast), a link
 *   to the device, with a tooltip naming role and rack;
 * - the cables between two devices are one edge (several cables: thicker, with their count), drawn
 *   as a curve between the nodes' sides, in the cables' colour when one has one, dashed for
 *   wireless; edges are drawn under the nodes and half transparent, so dense bundles read as
 *   bundles and never hide a name.
 */
import type { DeviceLink } from '../../apps/dcim/device-links.js';
import { html, type Html } from '../html.js';

export interface TopoDevice {
  id: number;
  name: string;
  rack: string | null;
  position: number | null;
  role: string | null;
  /** the role's colour, `rrggbb` */
  color: string | null;
}

const COL_W = 190;
const NODE_W = 160;
const NODE_H = 22;
const ROW_GAP = 6;
const HEAD_H = 26;
const BAND_GAP = 40;
const MARGIN = 16;

interface Placed {
  d: TopoDevice;
  x: number;
  y: number;
}

function textColour(hex: string): string {
  const n = Number.parseInt(hex, 16);
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  // relative luminance (WCAG) of the fill: light fills get black text
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b) > 0.179 ? '#000000' : '#ffffff';
}

/** racks as columns, wrapped into bands of about √(columns × 3) columns */
function layout(devices: TopoDevice[]): { placed: Map<number, Placed>; heads: Html[]; width: number; height: number } {
  const byRack = new Map<string, TopoDevice[]>();
  for (const d of devices) {
    const k = d.rack ?? '';
    byRack.set(k, [...(byRack.get(k) ?? []), d]);
  }
  const racks = [...byRack.keys()].filter((k) => k !== '').sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  if (byRack.has('')) racks.push('');
  const perBand = Math.max(1, Math.ceil(Math.sqrt(racks.length * 3)));
  const placed = new Map<number, Placed>();
  const heads: Html[] = [];
  let bandY = MARGIN;
  let width = 0;
  for (let start = 0; start < racks.length; start += perBand) {
    let bandH = 0;
    racks.slice(start, start + perBand).forEach((rack, i) => {
      const x = MARGIN + i * COL_W;
      const members = byRack
        .get(rack)!
        .sort((a, b) =>
          rack === '' || a.position === b.position
            ? a.name.localeCompare(b.name, 'en', { numeric: true })
            : (b.position ?? -1) - (a.position ?? -1),
        );
      heads.push(html`<text x="${x}" y="${bandY + 16}" class="topo-rack">${rack === '' ? 'Not racked' : rack}</text>`);
      members.forEach((d, j) => placed.set(d.id, { d, x, y: bandY + HEAD_H + j * (NODE_H + ROW_GAP) }));
      bandH = Math.max(bandH, HEAD_H + members.length * (NODE_H + ROW_GAP));
      width = Math.max(width, x + NODE_W + MARGIN);
    });
    bandY += bandH + BAND_GAP;
  }
  return { placed, heads, width: Math.max(width, 200), height: Math.max(bandY - BAND_GAP + MARGIN, 60) };
}

function edge(a: Placed, b: Placed, link: DeviceLink): Html {
  const colour = link.color && /^[0-9a-f]{6}$/i.test(link.color) ? `#${link.color}` : '#7b8594';
  const width = Math.min(8, 1 + Math.log2(link.count));
  const ay = a.y + NODE_H / 2;
  const by = b.y + NODE_H / 2;
  let d: string;
  if (a.x === b.x) {
    // the same column: an arc out to the right side
    const bend = Math.min(COL_W - NODE_W - 4, 12 + Math.abs(by - ay) / 8);
    d = `M${a.x + NODE_W} ${ay} C${a.x + NODE_W + bend} ${ay} ${b.x + NODE_W + bend} ${by} ${b.x + NODE_W} ${by}`;
  } else {
    const [l, r, ly, ry] = a.x < b.x ? [a, b, ay, by] : [b, a, by, ay];
    const mid = (l.x + NODE_W + r.x) / 2;
    d = `M${l.x + NODE_W} ${ly} C${mid} ${ly} ${mid} ${ry} ${r.x} ${ry}`;
  }
  return html`<path d="${d}" stroke="${colour}" stroke-width="${width.toFixed(1)}"${link.wireless ? html` stroke-dasharray="6 4"` : ''} class="topo-edge"><title>${a.d.name} – ${b.d.name}: ${link.count} ${link.count === 1 ? 'link' : 'links'}</title></path>`;
}

export function topologySvg(devices: TopoDevice[], links: DeviceLink[], title: string): Html {
  const { placed, heads, width, height } = layout(devices);
  const edges: Html[] = [];
  for (const l of links) {
    const a = placed.get(l.a);
    const b = placed.get(l.b);
    if (a && b && l.a !== l.b) edges.push(edge(a, b, l));
  }
  const nodes = [...placed.values()].map(({ d, x, y }) => {
    const fill = d.color && /^[0-9a-f]{6}$/i.test(d.color) ? d.color : '9e9e9e';
    const label = d.name.length > 22 ? `${d.name.slice(0, 21)}…` : d.name;
    return html`<a href="/dcim/devices/${d.id}/"><title>${d.name}${d.role ? ` (${d.role})` : ''}${d.rack ? `, rack ${d.rack}` : ''}</title><rect x="${x}" y="${y}" width="${NODE_W}" height="${NODE_H}" rx="4" fill="#${fill}" class="topo-node"/><text x="${x + 8}" y="${y + 15}" fill="${textColour(fill)}" class="topo-name">${label}</text></a>`;
  });
  return html`<svg xmlns="http://www.w3.org/2000/svg" class="topology-svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="group" aria-label="${title}"><title>${title}</title><g class="topo-edges">${edges}</g>${heads}<g class="topo-nodes">${nodes}</g></svg>`;
}
