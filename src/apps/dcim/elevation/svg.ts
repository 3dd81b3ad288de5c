/**
 * Draws one face of a rack as an SVG document, laid out as NetBox 3.4's RackElevationSVG
 * (dcim/svg/racks.py) lays it out: unit numbers in a legend on the left, one slot per unit, each
 * device a rectangle over the units it fills (its role's colour on the face it is mounted on, a
 * hatched "blocked" pattern on the opposite face of a full-depth device, plain blocked space for
 * a device the user may not view), reservations in the right-hand margin, a border around the
 * units. Every text and attribute value is escaped.
 *
 * Two uses: the REST route's standalone document (its own stylesheet, NetBox's look), and a drawing
 * inlined in a web page (`InPage`): no <style> element and no style attribute (the page's CSP
 * allows neither; the page's stylesheet styles it), colours and patterns as presentation
 * attributes, ids prefixed so several drawings share a page, and a name for every link.
 */
import type { MountedDevice } from './units.js';
import type { ElevationParams, Face } from './params.js';

// NetBox 3.4 dcim/constants.py RACK_ELEVATION_BORDER_WIDTH
const BORDER = 2;

export interface Reservation {
  id: number;
  units: number[];
  description: string;
  url: string;
}

export interface Drawing {
  /** `starting_unit` (NetBox 4.1): the number of the lowest unit; 1 when absent */
  rack: { u_height: number; desc_units: boolean; starting_unit?: number };
  face: Face;
  devices: MountedDevice[];
  reservations: Reservation[];
  /** the device's URL: its web page (NetBox: get_absolute_url) */
  deviceUrl(id: number): string;
  /**
   * the link of an empty unit, NetBox's "add device" at that position (dcim/svg/racks.py
   * draw_background); absent: empty units link nowhere
   */
  addUrl?(unit: number): string;
}

/** a drawing inside an HTML page */
export interface InPage {
  /** unique in the page: prefixes the drawing's ids (its patterns) */
  id: string;
  /** the drawing's accessible name ("Front of rack R1") */
  label: string;
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** text and attribute values: markup characters become entities; characters XML forbids are dropped */
const escapeXml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ENTITIES[c]!).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '');

/** black or white text, whichever reads better on the fill (perceived brightness, as NetBox picks) */
function textColor(hex: string): string {
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16) || 0);
  return r! * 0.299 + g! * 0.587 + b! * 0.114 > 186 ? '#000000' : '#ffffff';
}

/** NetBox get_device_name: the VC position, else the name, else the type; bays filled / bays */
function deviceLabel(d: MountedDevice): string {
  const base = d.vc_name !== null ? `${d.vc_name}:${d.vc_position ?? ''}` : d.name || d.model;
  return d.bays ? `${base} (${d.bays_filled}/${d.bays})` : base;
}

/** NetBox get_device_description, the link's tooltip */
function deviceDescription(d: MountedDevice): string {
  return `${d.name ?? ''} (${d.role}) — ${d.manufacturer} ${d.model} (${d.u_height}U) ${d.asset_tag ?? ''} ${d.serial}`;
}

/** Whole units `[a, b]` runs of consecutive numbers (NetBox array_to_ranges) */
function runs(units: number[]): Array<[number, number]> {
  const sorted = [...new Set(units)].sort((a, b) => a - b);
  const out: Array<[number, number]> = [];
  for (const u of sorted) {
    const lastRun = out.at(-1);
    if (lastRun && u === lastRun[1] + 1) lastRun[1] = u;
    else out.push([u, u]);
  }
  return out;
}

const STYLE = `
svg { font-family: -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; font-size: 13px; }
.rack { fill: none; stroke: #606060; stroke-width: ${BORDER}px; }
.slot { fill: #f7f7f7; stroke: #a0a0a0; }
.slot.reserved { fill: url(#reserved); }
.slot.blocked, .blocked { fill: url(#blocked); stroke: #a0a0a0; }
.device { stroke: #606060; }
.unit { fill: #606060; font-size: 11px; text-anchor: middle; dominant-baseline: middle; }
.label { text-anchor: middle; dominant-baseline: middle; }
.reservation { fill: url(#reserved); stroke: #a0a0ff; }
a:hover .device, a:hover .slot { opacity: 0.8; }
rect.add { fill: transparent; }
text.add { fill: #1a5fd0; visibility: hidden; text-anchor: middle; dominant-baseline: middle; }
a.add:hover rect.add { fill: #e0e0e0; }
a.add:hover text.add { visibility: visible; }
`;

function gradient(id: string, color: string): string {
  return (
    `<linearGradient id="${id}" x1="0" y1="0" x2="0" y2="25" spreadMethod="repeat" gradientTransform="rotate(45, 0, 0)" gradientUnits="userSpaceOnUse">` +
    `<stop offset="0%" stop-color="#f7f7f7"/><stop offset="50%" stop-color="#f7f7f7"/>` +
    `<stop offset="50%" stop-color="${color}"/><stop offset="100%" stop-color="${color}"/></linearGradient>`
  );
}

/** the whole units no device covers on this face (a half-unit device covers the two it touches) */
function emptyUnits(height: number, start: number, devices: MountedDevice[]): number[] {
  const taken = new Set<number>();
  for (const dev of devices) {
    const first = Math.round(dev.position * 2);
    for (let slot = first; slot < first + Math.round(dev.u_height * 2); slot += 1) taken.add(Math.floor(slot / 2));
  }
  return Array.from({ length: height }, (_, i) => i + start).filter((u) => !taken.has(u));
}

export function renderElevationSvg(d: Drawing, p: ElevationParams, inPage?: InPage): string {
  const { unitWidth: uw, unitHeight: uh, legendWidth: lw, marginWidth: mw } = p;
  const { u_height: height, desc_units: desc } = d.rack;
  // NetBox 4.1: the units are numbered from the rack's starting unit (Rack.units)
  const start = d.rack.starting_unit ?? 1;
  const last = start + height - 1;
  const width = uw + lw + mw + BORDER * 2;
  const totalHeight = uh * height + BORDER * 2;
  const x0 = lw + BORDER;
  /** top of the rectangle of something `h` units tall whose lowest unit is `position` */
  const topOf = (position: number, h: number) =>
    BORDER + (desc ? Math.trunc((position - start) * uh) : Math.trunc((last - position + 1) * uh) - Math.trunc(h * uh));
  const reserved = new Set(d.reservations.flatMap((r) => r.units));
  // in a page: patterns by prefixed id as presentation attributes; standalone: its stylesheet's classes
  const pattern = (name: string) => (inPage ? ` fill="url(#${escapeXml(inPage.id)}-${name})"` : '');
  const gid = (name: string) => (inPage ? `${escapeXml(inPage.id)}-${name}` : name);
  const target = inPage ? '' : ' target="_parent"';
  const out: string[] = [];
  out.push(
    inPage
      ? `<svg xmlns="http://www.w3.org/2000/svg" class="elevation" role="group" aria-label="${escapeXml(inPage.label)}" width="${width}" height="${totalHeight}" viewBox="0 0 ${width} ${totalHeight}">`
      : `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" version="1.1" width="${width}" height="${totalHeight}" viewBox="0 0 ${width} ${totalHeight}">`,
  );
  out.push(
    `<defs>${inPage ? '' : `<style type="text/css">${STYLE}</style>`}${gradient(gid('reserved'), '#b0b0ff')}${gradient(gid('occupied'), '#d7d7d7')}${gradient(gid('blocked'), '#ffc0c0')}</defs>`,
  );
  // legend and empty slots, top row first
  for (let row = 0; row < height; row += 1) {
    const unit = desc ? start + row : last - row;
    const y = BORDER + row * uh;
    out.push(`<text class="unit" x="${lw / 2}" y="${y + uh / 2 + BORDER}" aria-hidden="true">${unit}</text>`);
    const title = reserved.has(unit) ? `<title>U${unit} (reserved)</title>` : '';
    out.push(
      `<rect class="slot${reserved.has(unit) ? ' reserved' : ''}"${reserved.has(unit) ? pattern('reserved') : ''} data-unit="${unit}" x="${x0}" y="${y}" width="${uw}" height="${uh}">${title}</rect>`,
    );
  }
  // empty units link to the add-device form at that position, drawn over their slots
  if (d.addUrl)
    for (const unit of emptyUnits(height, start, d.devices)) {
      const name = `Add a device at U${unit}${reserved.has(unit) ? ' (reserved)' : ''}`;
      out.push(
        `<a class="add" href="${escapeXml(d.addUrl(unit))}"${target} aria-label="${name}" data-add-unit="${unit}"><title>${name}</title>` +
          `<rect class="add" x="${x0}" y="${topOf(unit, 1)}" width="${uw}" height="${uh}"/>` +
          `<text class="add" x="${x0 + uw / 2}" y="${topOf(unit, 1) + uh / 2}" aria-hidden="true">add device</text></a>`,
      );
    }
  // reservations in the margin, one bar per run of consecutive units (NetBox: margin_width - 3 wide,
  // so the bar stays inside the drawing)
  for (const r of d.reservations) {
    for (const [from, to] of runs(r.units)) {
      if (from > last || to < start) continue;
      const h = Math.min(to, last) - Math.max(from, start) + 1;
      const name = escapeXml(`Reservation #${r.id}: ${r.description}`);
      out.push(
        `<a href="${escapeXml(r.url)}"${target}${inPage ? ` aria-label="${name}"` : ''}><title>${name}</title>` +
          `<rect class="reservation"${pattern('reserved')} x="${x0 + uw + BORDER * 2}" y="${topOf(Math.max(from, start), h)}" width="${Math.max(mw - 3, 1)}" height="${h * uh}"/></a>`,
      );
    }
  }
  for (const dev of d.devices) {
    const x = x0;
    const y = topOf(dev.position, dev.u_height);
    const h = Math.trunc(uh * dev.u_height);
    if (!dev.visible) {
      out.push(`<rect class="blocked"${pattern('blocked')} x="${x}" y="${y}" width="${uw}" height="${h}"/>`);
      continue;
    }
    // NetBox draws the role colour on the face the device is mounted on, a blocked pattern behind it
    const front = dev.face === d.face;
    const label = escapeXml(deviceLabel(dev));
    const fillOf = inPage ? ` fill="#${escapeXml(dev.color)}"` : ` style="fill: #${escapeXml(dev.color)}"`;
    const rect = front
      ? `<rect class="device slot"${fillOf} x="${x}" y="${y}" width="${uw}" height="${h}"/>`
      : `<rect class="device slot blocked"${pattern('blocked')} x="${x}" y="${y}" width="${uw}" height="${h}"/>`;
    const fill = front ? textColor(dev.color) : '#000000';
    out.push(
      `<a href="${escapeXml(d.deviceUrl(dev.id))}"${target}${inPage ? ` aria-label="${label}"` : ''} data-device="${dev.id}"><title>${escapeXml(deviceDescription(dev))}</title>${rect}` +
        `<text class="label" x="${x + uw / 2}" y="${y + h / 2}" fill="${fill}">${label}</text></a>`,
    );
  }
  out.push(
    `<rect class="rack" x="${lw + BORDER / 2}" y="${BORDER / 2}" width="${uw + BORDER}" height="${height * uh + BORDER}"/>`,
  );
  out.push('</svg>');
  return out.join('\n');
}
