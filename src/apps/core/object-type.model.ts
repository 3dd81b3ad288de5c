/**
 * Object types (NetBox 4.4 `/api/core/object-types/`): the content types (extras_contenttype, kept
 * in step with the registry at start-up) with what NetBox 4.4 tells about each model, read from
 * the registry: its app's and its own verbose names, its features and its REST endpoint. Read-only;
 * served in the 4.4 dialect only.
 */
import { defineModel } from '../../core/model/define-model.js';
import type { ModelDef } from '../../core/model/types.js';
import { APP_LABELS } from '../extras/choices.js';

/** NetBox 4.4's names of the features a model has (netbox/models/features.py), from its declaration */
function featuresOf(m: ModelDef): string[] {
  const out: string[] = [];
  if (m.changelog && !m.readOnly)
    out.push('bookmarks', 'change_logging', 'event_rules', 'export_templates', 'journaling', 'notifications');
  if (m.customFields) out.push('custom_fields', 'custom_links');
  if (m.tags) out.push('tags');
  return out.sort();
}

const appName = (app: string) => APP_LABELS[app] ?? app.charAt(0).toUpperCase() + app.slice(1);

export const objectType = defineModel({
  name: 'core.objecttype',
  path: 'object-types',
  verboseName: 'object type',
  table: 'extras_contenttype',
  dialect: '4.4',
  fields: {
    app_label: { kind: 'string', maxLength: 100, readOnly: true },
    app_name: { kind: 'computed', readOnly: true, shape: { type: 'string' } },
    model: { kind: 'string', maxLength: 100, readOnly: true },
    model_name: { kind: 'computed', readOnly: true, shape: { type: 'string' } },
    model_name_plural: { kind: 'computed', readOnly: true, shape: { type: 'string' } },
    public: { kind: 'computed', readOnly: true, shape: { type: 'boolean' } },
    features: { kind: 'computed', readOnly: true, shape: { type: 'array', items: { type: 'string' } } },
    is_plugin_model: { kind: 'computed', readOnly: true, shape: { type: 'boolean' } },
    rest_api_endpoint: { kind: 'computed', readOnly: true, shape: { type: 'string', nullable: true } },
    description: { kind: 'computed', readOnly: true, shape: { type: 'string', nullable: true } },
  },
  readOnly: true,
  tags: false,
  customFields: false,
  changelog: false,
  timestamps: false,
  display: (row) => `${appName(String(row.app_label))} | ${row.model}`,
  hooks: {
    represent(rc, rows, out) {
      rows.forEach((row, i) => {
        const o = out[i]!;
        const m = rc.app.registry.find(`${row.app_label}.${row.model}`);
        const put = (key: string, value: unknown) => {
          if (key in o) o[key] = value;
        };
        put('app_name', appName(String(row.app_label)));
        put('model_name', m?.verboseName ?? row.model);
        put('model_name_plural', m?.verboseNamePlural ?? row.model);
        put('public', !!m);
        put('features', m ? featuresOf(m) : []);
        put('is_plugin_model', false);
        put('rest_api_endpoint', m ? `/api/${m.app}/${m.path}/` : null);
        put('description', m?.description ?? null);
        // NetBox shows the model's verbose name: "DCIM | rack type"
        if (m && 'display' in o) o.display = `${appName(m.app)} | ${m.verboseName}`;
      });
    },
  },
  ui: { columns: ['app_label', 'model', 'model_name', 'public'] },
  brief: ['app_label', 'model'],
  ordering: ['app_label', 'model'],
  search: ['app_label', 'model'],
});
