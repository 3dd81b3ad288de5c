/**
 * How the 4.4 dialect's document shows the request mechanics of NetBox 4.4-4.6 (crud/routes.ts):
 * `changelog_message` in every write body (#19713), `add_tags` / `remove_tags` beside `tags`
 * (#21771), the `start` parameter of cursor paging (#21363), the `ETag` of a detail and the 412 of
 * an If-Match that does not hold (#21356). The 3.4 document keeps the spec's shapes: the service
 * takes the same writes and headers there (a 412 falls under its `default` answer), but `start` is
 * not served in 3.4 and its pages always carry a count.
 */
import { type Dialect, hasIn } from '../model/dialect.js';
import type { ModelDef } from '../model/types.js';
import { ref, type Schema } from './shapes.js';

const TAG_ITEM = { anyOf: [{ type: 'integer' }, { type: 'string' }, { type: 'object', additionalProperties: true }] };

const CHANGELOG_MESSAGE: Schema = {
  type: 'string',
  minLength: 1,
  maxLength: 200,
  writeOnly: true,
  description: "A note stored on the change record of each object the write names (NetBox 4.4's ObjectChange.message).",
};

/** The properties a write body takes besides the model's fields: none in 3.4's document. */
export function writeExtras(model: ModelDef, dialect: Dialect): Record<string, Schema> {
  if (dialect !== '4.4') return {};
  const out: Record<string, Schema> = { changelog_message: CHANGELOG_MESSAGE };
  if (hasIn(model.tags, dialect)) {
    out.add_tags = { type: 'array', items: TAG_ITEM, writeOnly: true, description: 'Tags to add, keeping the others.' };
    out.remove_tags = {
      type: 'array',
      items: TAG_ITEM,
      writeOnly: true,
      description: 'Tags to remove, keeping the others (not on a create).',
    };
  }
  return out;
}

/** The body a DELETE may carry: its changelog_message (one object for a detail; each item of a bulk one). */
export function deleteBodyProperties(dialect: Dialect): Record<string, Schema> {
  return dialect === '4.4' ? { changelog_message: CHANGELOG_MESSAGE } : {};
}

/** The `start` parameter of a list, in 4.4's document. */
export function cursorParameters(dialect: Dialect): Schema[] {
  if (dialect !== '4.4') return [];
  return [
    {
      name: 'start',
      in: 'query',
      required: false,
      description:
        'Cursor-based pagination: the results whose id is start or more, in id order, with no count. Not with offset or ordering.',
      schema: { type: 'integer', minimum: 0 },
    },
  ];
}

/** `ETag` on an answer showing one object, in 4.4's document. */
export function etagHeader(dialect: Dialect): Schema {
  if (dialect !== '4.4') return {};
  return {
    headers: {
      ETag: {
        description: "A weak tag of the object's last_updated; send it back in If-Match to write only that version.",
        schema: { type: 'string' },
      },
    },
  };
}

/** The If-Match header of a single write, and its 412, in 4.4's document. */
export function ifMatch(dialect: Dialect): { parameters: Schema[]; responses: Record<string, Schema> } {
  if (dialect !== '4.4') return { parameters: [], responses: {} };
  return {
    parameters: [
      {
        name: 'If-Match',
        in: 'header',
        required: false,
        description: 'ETags, comma-separated, or `*`: the write is made only if the object still has one of them.',
        schema: { type: 'string' },
      },
    ],
    responses: {
      412: {
        description:
          'The object has changed since the If-Match tag was read; nothing was written. Carries the current ETag.',
        content: { 'application/json': { schema: ref('Detail') } },
        ...etagHeader(dialect),
      },
    },
  };
}
