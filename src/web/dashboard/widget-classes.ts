/**
 * The widget classes the dashboard knows: NetBox's (netbox/extras/dashboard/widgets.py) with their
 * names, default titles, sizes and config keys. Each declares its config fields; the form
 * (config-form.ts) and the check of a post come from them, the content from render-widget.ts.
 */

/** NetBox's DashboardWidgetColorChoices */
export const WIDGET_COLORS = [
  'blue',
  'indigo',
  'purple',
  'pink',
  'red',
  'orange',
  'yellow',
  'green',
  'teal',
  'cyan',
  'gray',
  'black',
  'white',
] as const;

/** NetBox's BookmarkOrderingChoices */
const BOOKMARK_ORDERS: ReadonlyArray<readonly [string, string]> = [
  ['-created', 'Newest'],
  ['created', 'Oldest'],
  ['name', 'Alphabetical (A-Z)'],
  ['-name', 'Alphabetical (Z-A)'],
];

export interface ConfigField {
  name: string;
  label: string;
  /** models: a multiple choice of object types; model: one (with a list page); json: an object */
  kind: 'text' | 'models' | 'model' | 'json' | 'int' | 'choice' | 'url' | 'bool';
  required?: boolean;
  min?: number;
  max?: number;
  choices?: ReadonlyArray<readonly [string, string]>;
  help?: string;
}

export interface WidgetClass {
  name: string;
  label: string;
  description: string;
  width: number;
  height: number;
  defaultConfig: Record<string, unknown>;
  fields: ConfigField[];
}

export const WIDGET_CLASSES: readonly WidgetClass[] = [
  {
    name: 'extras.NoteWidget',
    label: 'Note',
    description: 'Display some arbitrary custom content. Markdown is supported.',
    width: 4,
    height: 3,
    defaultConfig: {},
    fields: [{ name: 'content', label: 'Content', kind: 'text', required: true, help: 'Markdown' }],
  },
  {
    name: 'extras.ObjectCountsWidget',
    label: 'Object Counts',
    description: 'Display a set of models and the number of objects of each you may view.',
    width: 4,
    height: 3,
    defaultConfig: {},
    fields: [
      { name: 'models', label: 'Models', kind: 'models', required: true },
      {
        name: 'filters',
        label: 'Object filters',
        kind: 'json',
        help: 'Filters to apply when counting the number of objects, as a JSON object: {"status": "active"}',
      },
    ],
  },
  {
    name: 'extras.ObjectListWidget',
    label: 'Object List',
    description: 'Display an arbitrary list of objects.',
    width: 12,
    height: 4,
    defaultConfig: {},
    fields: [
      { name: 'model', label: 'Model', kind: 'model', required: true },
      {
        name: 'page_size',
        label: 'Page size',
        kind: 'int',
        min: 1,
        max: 100,
        help: 'The number of objects to display (10 when empty)',
      },
      {
        name: 'url_params',
        label: 'URL parameters',
        kind: 'json',
        help: 'The list\'s filters as a JSON object, a saved filter by {"filter": "<slug>"} or {"filter_id": 1}',
      },
    ],
  },
  {
    name: 'extras.RSSFeedWidget',
    label: 'RSS Feed',
    description: 'An RSS feed from an external website (this service does not fetch feeds).',
    width: 6,
    height: 4,
    defaultConfig: { max_entries: 10, cache_timeout: 3600, request_timeout: 3, requires_internet: true },
    fields: [
      { name: 'feed_url', label: 'Feed URL', kind: 'url', required: true },
      { name: 'requires_internet', label: 'Requires external connection', kind: 'bool' },
      { name: 'max_entries', label: 'Max entries', kind: 'int', required: true, min: 1, max: 1000 },
      { name: 'cache_timeout', label: 'Cache timeout (seconds)', kind: 'int', required: true, min: 600, max: 86400 },
      { name: 'request_timeout', label: 'Request timeout (seconds)', kind: 'int', min: 1, max: 60 },
    ],
  },
  {
    name: 'extras.BookmarksWidget',
    label: 'Bookmarks',
    description: 'Show your personal bookmarks.',
    width: 4,
    height: 3,
    defaultConfig: { order_by: '-created' },
    fields: [
      { name: 'object_types', label: 'Object types', kind: 'models' },
      { name: 'order_by', label: 'Order by', kind: 'choice', required: true, choices: BOOKMARK_ORDERS },
      { name: 'max_items', label: 'Max items', kind: 'int', min: 1 },
    ],
  },
];

export function widgetClass(name: string | undefined): WidgetClass | undefined {
  return WIDGET_CLASSES.find((c) => c.name === name);
}
