/**
 * The dashboard a user starts with (NetBox 3.6 DEFAULT_DASHBOARD and get_default_dashboard): the
 * same widgets, sizes, titles and colours, each under a fresh UUID in both `layout` (grid
 * placement) and `config` (what the widget shows). The note's text is our own, and NetBox's
 * "NetBox News" feed is replaced by the counts of wireless and VPN objects: this service fetches no
 * feed (it reaches nothing outside its network), and a widget that can only say so is no default.
 */
import { randomUUID } from 'node:crypto';

interface Widget {
  widget: string;
  width: number;
  height: number;
  title: string;
  color?: string;
  config?: Record<string, unknown>;
}

const counts = (title: string, models: string[], height: number): Widget => ({
  widget: 'extras.ObjectCountsWidget',
  width: 4,
  height,
  title,
  config: { models },
});

const DEFAULT_WIDGETS: Widget[] = [
  { widget: 'extras.BookmarksWidget', width: 4, height: 5, title: 'Bookmarks', color: 'orange' },
  counts('Organization', ['dcim.site', 'tenancy.tenant', 'tenancy.contact'], 2),
  {
    widget: 'extras.NoteWidget',
    width: 4,
    height: 2,
    title: 'Welcome!',
    color: 'green',
    config: {
      content: 'Your own dashboard: move, resize, add or remove widgets as you like; nobody else sees the changes.',
    },
  },
  counts('IPAM', ['ipam.vrf', 'ipam.aggregate', 'ipam.prefix', 'ipam.iprange', 'ipam.ipaddress', 'ipam.vlan'], 3),
  counts('Wireless and VPN', ['wireless.wirelesslan', 'wireless.wirelesslink', 'vpn.tunnel', 'vpn.l2vpn'], 3),
  counts(
    'Circuits',
    ['circuits.provider', 'circuits.circuit', 'circuits.providernetwork', 'circuits.provideraccount'],
    3,
  ),
  counts('DCIM', ['dcim.site', 'dcim.rack', 'dcim.devicetype', 'dcim.device', 'dcim.cable'], 3),
  counts('Virtualization', ['virtualization.cluster', 'virtualization.virtualmachine'], 2),
  {
    widget: 'extras.ObjectListWidget',
    width: 12,
    height: 5,
    title: 'Change Log',
    color: 'blue',
    config: { model: 'extras.objectchange', page_size: 25 },
  },
];

export interface DashboardData {
  layout: unknown[];
  config: Record<string, unknown>;
}

export function defaultDashboard(): DashboardData {
  const layout: unknown[] = [];
  const config: Record<string, unknown> = {};
  for (const w of DEFAULT_WIDGETS) {
    const id = randomUUID();
    layout.push({ id, w: w.width, h: w.height, x: null, y: null });
    config[id] = { class: w.widget, title: w.title, color: w.color ?? null, config: w.config ?? {} };
  }
  return { layout, config };
}
