/**
 * A cable trace drawn as SVG, top to bottom: each hop's near ends as a box (what they belong to,
 * then the ports), the cable or wireless link as a segment in the cable's colour (dashed when it is
 * not connected, or is a wireless link) with its name, type and length beside it, then the far
 * ends. Every device, port and cable is a link to its page. Text goes through `html`, so names
 * are escaped; colours are presentation attributes (allowed by the CSP) from checked hex values.
 * A group, not an image: an image may not hold links (axe nested-interactive).
 */
import { objectHref, type Represented } from '../components/cells.js';
import { html, type Html } from '../html.js';

/** one hop of the REST trace: near ends, the cable (traced form) or wireless link, far ends */
export type Hop = [Represented[], Represented | null, Represented[]];

const WIDTH = 600;
const BOX_X = 20;
const BOX_W = 300;
const LINE_H = 18;
const LINK_H = 80;
const GAP = 14;
const OWNERS = ['device', 'virtual_machine', 'circuit', 'power_panel', 'module'];

function link(obj: Represented | undefined, inner: Html): Html {
  const href = obj ? objectHref(obj.url) : null;
  return href ? html`<a href="${href}">${inner}</a>` : inner;
}

/** the objects' owner (a device, circuit or power panel), when they share one */
function ownerOf(ends: Represented[]): Represented | undefined {
  for (const k of OWNERS) {
    const o = ends[0]?.[k];
    if (o && typeof o === 'object') return o as Represented;
  }
  return undefined;
}

/** a box of ends: the owner's name, then one line per end (a few, then "and N more") */
function endsBox(ends: Represented[], y: number): { svg: Html; height: number } {
  const owner = ownerOf(ends);
  const shown = ends.slice(0, 4);
  const lines = (owner ? 1 : 0) + shown.length + (ends.length > shown.length ? 1 : 0);
  const height = 12 + lines * LINE_H;
  let ty = y + 6 + LINE_H - 4;
  const texts: Html[] = [];
  if (owner) {
    texts.push(
      link(
        owner,
        html`<text x="${BOX_X + 12}" y="${ty}" class="trace-owner">${String(owner.display ?? owner.name ?? owner.id)}</text>`,
      ),
    );
    ty += LINE_H;
  }
  for (const e of shown) {
    texts.push(
      link(e, html`<text x="${BOX_X + 12}" y="${ty}" class="trace-port">${String(e.display ?? e.name ?? e.id)}</text>`),
    );
    ty += LINE_H;
  }
  if (ends.length > shown.length)
    texts.push(
      html`<text x="${BOX_X + 12}" y="${ty}" class="trace-more">and ${ends.length - shown.length} more</text>`,
    );
  return {
    svg: html`<rect x="${BOX_X}" y="${y}" width="${BOX_W}" height="${height}" rx="6" class="trace-box"/>${texts}`,
    height,
  };
}

/** a checked `#rrggbb` for the cable, else the neutral grey */
function colourOf(linkObj: Represented): string {
  const c = linkObj.color;
  return typeof c === 'string' && /^[0-9a-f]{6}$/i.test(c) ? `#${c}` : '#8a8f98';
}

function linkSegment(linkObj: Represented | null, y: number): Html {
  const x = BOX_X + BOX_W / 2;
  if (!linkObj)
    return html`<line x1="${x}" y1="${y}" x2="${x}" y2="${y + LINK_H}" class="trace-none"/><text x="${x + 14}" y="${y + LINK_H / 2 + 4}" class="trace-label">no link</text>`;
  const wireless = linkObj.ssid !== undefined;
  const dashed = wireless || linkObj.status !== 'connected';
  const name = wireless
    ? `Wireless ${String(linkObj.ssid || `link #${linkObj.id}`)}`
    : String(linkObj.label || `Cable #${linkObj.id}`);
  const detail = [
    typeof linkObj.status === 'string' ? linkObj.status : '',
    typeof linkObj.type === 'string' ? linkObj.type : '',
    linkObj.length != null ? `${String(linkObj.length)} ${String(linkObj.length_unit ?? '')}`.trim() : '',
  ].filter(Boolean);
  return html`<line x1="${x}" y1="${y}" x2="${x}" y2="${y + LINK_H}" stroke="${colourOf(linkObj)}" stroke-width="6"${dashed ? html` stroke-dasharray="8 6"` : ''} class="trace-link"/>
${link(linkObj, html`<text x="${x + 16}" y="${y + LINK_H / 2 - 4}" class="trace-cable">${name}</text>`)}<text x="${x + 16}" y="${y + LINK_H / 2 + 14}" class="trace-label">${detail.join(' · ')}</text>`;
}

export function traceSvg(hops: Hop[], title: string): Html {
  const parts: Html[] = [];
  let y = 10;
  hops.forEach(([near, linkObj, far], i) => {
    if (i > 0) {
      // the far ends of a hop and the near ends of the next sit on one device (front to rear port)
      parts.push(
        html`<line x1="${BOX_X + BOX_W / 2}" y1="${y - GAP}" x2="${BOX_X + BOX_W / 2}" y2="${y}" class="trace-internal"/>`,
      );
    }
    const a = endsBox(near, y);
    parts.push(a.svg);
    y += a.height;
    parts.push(linkSegment(linkObj, y));
    y += LINK_H;
    if (far.length) {
      const b = endsBox(far, y);
      parts.push(b.svg);
      y += b.height;
    }
    y += GAP;
  });
  return html`<svg xmlns="http://www.w3.org/2000/svg" class="trace-svg" width="${WIDTH}" height="${y}" viewBox="0 0 ${WIDTH} ${y}" role="group" aria-label="${title}"><title>${title}</title>${parts}</svg>`;
}
