/**
 * A represented value (what the REST API shows for a field) as markup for a cell or an attribute
 * panel: related objects are links to their pages, choices coloured labels (the label is always the
 * text: never colour alone), tags chips with their colour, booleans words, nothing a muted dash.
 * Every string goes through `html`, so a value can never become markup.
 */
import { html, type Html, type HtmlValue } from '../html.js';

/** tones of NetBox's choice colours, by value (NetBox ChoiceSet colors: green active, cyan planned...) */
const TONES: Record<string, string> = {
  active: 'ok',
  available: 'ok',
  connected: 'ok',
  dhcp: 'ok',
  completed: 'ok',
  planned: 'info',
  reserved: 'info',
  provisioning: 'info',
  staging: 'info',
  staged: 'info',
  pending: 'info',
  running: 'info',
  slaac: 'info',
  decommissioning: 'warn',
  deprecated: 'warn',
  offline: 'warn',
  decommissioned: 'bad',
  retired: 'bad',
  failed: 'bad',
  errored: 'bad',
  disabled: 'neutral',
  // change actions (NetBox ObjectChangeActionChoices: green, blue, red)
  create: 'ok',
  update: 'info',
  delete: 'bad',
};

export type Represented = Record<string, unknown>;

/** a related object's page on this site: its API URL without the origin and `/api` */
export function objectHref(url: unknown): string | null {
  if (typeof url !== 'string') return null;
  const m = /^(?:https?:\/\/[^/]+)?\/api(\/[a-z0-9-]+\/[a-z0-9-]+\/\d+\/)$/.exec(url);
  return m ? m[1]! : null;
}

function isNested(v: unknown): v is Represented {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && 'id' in v && ('display' in v || 'url' in v);
}

function isChoice(v: unknown): v is { value: unknown; label: string } {
  return typeof v === 'object' && v !== null && 'value' in v && 'label' in v && Object.keys(v).length === 2;
}

export function dash(): Html {
  return html`<span class="muted" aria-label="none">—</span>`;
}

/** a related object as a link to its page (or its name where it has none) */
function objectLink(v: Represented): Html {
  const href = objectHref(v.url);
  const text = String(v.display ?? v.name ?? v.id);
  return href ? html`<a href="${href}">${text}</a>` : html`${text}`;
}

/** what a port belongs to in its nested form: a component's device or machine, a termination's circuit, a feed's panel */
const OWNERS = ['device', 'virtual_machine', 'circuit', 'power_panel', 'module'];

/**
 * a port at the other end of something (`link_peers`, `connected_endpoints`): its owner, then
 * the port (`switch1 › ge-0/0/1`), each a link; the port's own name alone says too little
 */
function portLink(v: Represented): Html {
  const owner = OWNERS.map((k) => v[k]).find(isNested);
  return owner ? html`${objectLink(owner)} › ${objectLink(v)}` : objectLink(v);
}
const PORT_KEYS = new Set(['link_peers', 'connected_endpoints', 'a_terminations', 'b_terminations']);

function choiceLabel(value: unknown, label: string): Html {
  return html`<span class="badge tone-${TONES[String(value)] ?? 'neutral'}">${label}</span>`;
}

/** a tag's chip: its colour as an SVG swatch (a presentation attribute, allowed by the CSP) */
function tagChip(tag: Represented): Html {
  const color = typeof tag.color === 'string' && /^[0-9a-f]{6}$/i.test(tag.color) ? tag.color : '9e9e9e';
  const href = `/extras/tags/${Number(tag.id)}/`;
  return html`<a class="chip" href="${href}"><svg class="swatch" width="10" height="10" viewBox="0 0 10 10" aria-hidden="true"><circle cx="5" cy="5" r="5" fill="#${color}"/></svg>${String(tag.display ?? tag.name)}</a>`;
}

/** Any represented value as markup. `key` tells tags and colours apart from other lists and strings. */
export function cell(key: string, v: unknown): HtmlValue {
  if (v === null || v === undefined || v === '') return dash();
  if (typeof v === 'boolean') return html`<span class="bool bool-${v}">${v ? 'Yes' : 'No'}</span>`;
  if (key === 'color' && typeof v === 'string' && /^[0-9a-f]{6}$/i.test(v)) {
    return html`<span class="color-cell"><svg class="swatch" width="12" height="12" viewBox="0 0 12 12" aria-hidden="true"><rect width="12" height="12" fill="#${v}"/></svg>${v}</span>`;
  }
  if (Array.isArray(v)) {
    if (!v.length) return dash();
    if (key === 'tags') return html`<span class="chips">${v.map((t) => tagChip(t as Represented))}</span>`;
    // a list of [lower, upper] pairs (a VLAN group's vid_ranges) as NetBox words it: 1-99, 200-300
    if (v.every((r) => Array.isArray(r) && r.length === 2 && r.every(Number.isInteger)))
      return (v as number[][]).map(([a, b]) => (a === b ? String(a) : `${a}-${b}`)).join(', ');
    return v.map((x, i) => html`${i ? ', ' : ''}${cell(key, x)}`);
  }
  if (isChoice(v)) return v.value === null || v.value === '' ? dash() : choiceLabel(v.value, v.label);
  if (isNested(v)) return PORT_KEYS.has(key) ? portLink(v) : objectLink(v);
  // a cable's end as the API writes it: `{ object_type, object_id, object }`
  if (
    PORT_KEYS.has(key) &&
    typeof v === 'object' &&
    'object_type' in (v as Represented) &&
    isNested((v as Represented).object)
  )
    return portLink((v as Represented).object as Represented);
  if (typeof v === 'object') return html`<code class="json">${JSON.stringify(v)}</code>`;
  if ((key === 'created' || key === 'last_updated' || key === 'time') && typeof v === 'string') {
    return html`<time datetime="${v}">${v
      .replace('T', ' ')
      .replace(/\.\d+/, '')
      .replace(/(Z|\+00:00)$/, '')}</time>`;
  }
  return String(v);
}
