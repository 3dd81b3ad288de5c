/**
 * The `content_types` of custom links and export templates (NetBox 3.7: an m2m to the content
 * types with the custom_links / export_templates feature): a non-empty list of model identities
 * this service serves. Stored as text[] like the webhooks' and custom fields' lists, so the
 * content type filters (content-type-filters.ts) apply unchanged.
 */
import type { FieldDef, ModelHooks } from '../../core/model/types.js';

export const contentTypesField = (): FieldDef => ({ kind: 'strings', required: true });

/** validate hook: every named type is a registered model, and there is at least one */
export const validateContentTypes: NonNullable<ModelHooks['validate']> = async ({ rc, data, sent, before }) => {
  if (before && !sent.has('content_types')) return;
  const types = (data.content_types as string[] | null) ?? [];
  if (types.length === 0) return { content_types: ['This list may not be empty.'] };
  const unknown = types.filter((ct) => !rc.app.registry.find(ct));
  if (unknown.length) return { content_types: unknown.map((ct) => `Invalid content type: ${ct}`) };
};
