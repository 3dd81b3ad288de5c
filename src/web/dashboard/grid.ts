/**
 * The dashboard's stored data (NetBox 3.6 Dashboard: `layout` = gridstack items {id, x, y, w, h},
 * `config` = {id: {class, title, color, config}}) read as an ordered list of widgets, and the
 * changes the page makes to it. Pure functions: the page reads and writes the row through
 * apps/extras/dashboard-store.ts.
 *
 * Order: NetBox's gridstack places items by x and y; when every item has both, that is the order
 * here too (top to bottom, left to right), else the layout list's order. Every change made from
 * the page writes the layout in display order with x and y flowed left to right into 12 columns,
 * so NetBox's grid would show the same order.
 */
import { randomUUID } from 'node:crypto';
import { isPlainObject } from '../../core/crud/parse-field.js';
import type { DashboardData } from '../../apps/extras/dashboard-default.js';

export const GRID_COLUMNS = 12;

export interface Widget {
  id: string;
  /** `extras.NoteWidget`...; undefined when the layout names an id the config lacks */
  class: string | undefined;
  title: string | null;
  color: string | null;
  config: Record<string, unknown>;
  w: number;
  h: number;
}

/** a width or height as stored: an integer from 1 to 12, else `fallback` */
function span(v: unknown, fallback: number): number {
  return Number.isInteger(v) && (v as number) >= 1 && (v as number) <= GRID_COLUMNS ? (v as number) : fallback;
}

/** The widgets in display order; items the API stored without an id are left out. */
export function widgetsOf(d: DashboardData): Widget[] {
  const items = (Array.isArray(d.layout) ? d.layout : []).filter(
    (i): i is Record<string, unknown> => isPlainObject(i) && typeof i.id === 'string',
  );
  const placed = items.every((i) => Number.isInteger(i.x) && Number.isInteger(i.y));
  const ordered = placed
    ? [...items].sort((a, b) => (a.y as number) - (b.y as number) || (a.x as number) - (b.x as number))
    : items;
  const config = isPlainObject(d.config) ? d.config : {};
  return ordered.map((i) => {
    const c = config[i.id as string];
    const conf = isPlainObject(c) ? c : {};
    return {
      id: i.id as string,
      class: typeof conf.class === 'string' ? conf.class : undefined,
      title: typeof conf.title === 'string' ? conf.title : null,
      color: typeof conf.color === 'string' ? conf.color : null,
      config: isPlainObject(conf.config) ? conf.config : {},
      w: span(i.w, 4),
      h: span(i.h, 3),
    };
  });
}

/**
 * The data for these widgets in this order: the layout flowed into the grid, the config of each
 * (other entries of the stored config, which no grid item shows, are dropped, as NetBox's
 * delete_widget drops a widget's both halves)
 */
export function dataOf(widgets: Widget[]): DashboardData {
  const layout: unknown[] = [];
  const config: Record<string, unknown> = {};
  let x = 0;
  let y = 0;
  let rowHeight = 0;
  for (const w of widgets) {
    if (x + w.w > GRID_COLUMNS) {
      x = 0;
      y += rowHeight;
      rowHeight = 0;
    }
    layout.push({ id: w.id, x, y, w: w.w, h: w.h });
    x += w.w;
    rowHeight = Math.max(rowHeight, w.h);
    // a grid item without a config entry stays without one: the page shows it as unknown
    if (w.class !== undefined) config[w.id] = { class: w.class, title: w.title, color: w.color, config: w.config };
  }
  return { layout, config };
}

export type Move = 'first' | 'up' | 'down' | 'last';
export const MOVES: readonly Move[] = ['first', 'up', 'down', 'last'];

/** the widgets with `id` moved; unchanged when it is not there or already at that end */
export function moved(widgets: Widget[], id: string, move: Move): Widget[] {
  const from = widgets.findIndex((w) => w.id === id);
  if (from < 0) return widgets;
  const to = {
    first: 0,
    up: Math.max(0, from - 1),
    down: Math.min(widgets.length - 1, from + 1),
    last: widgets.length - 1,
  }[move];
  const out = widgets.filter((w) => w.id !== id);
  out.splice(to, 0, widgets[from]!);
  return out;
}

/** a new widget's id, as NetBox's (a UUID) */
export function newWidgetId(): string {
  return randomUUID();
}
