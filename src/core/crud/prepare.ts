/**
 * Turns written JSON objects into prepared writes: stored column values, m2m sets, tags and custom
 * field data, with every field error collected. Related objects are resolved in one batch for the
 * whole request, uniqueness is checked in batches, then the model's own validation runs.
 */
import type { RequestContext } from '../context.js';
import { FieldErrors } from '../errors.js';
import { columnOf } from '../model/define-model.js';
import type { FieldDef, ModelDef, Row } from '../model/types.js';
import { checkCustomFieldObjects, checkCustomFieldUniqueness, prepareCustomFields } from './custom-field-input.js';
import { FieldError, isPlainObject, parseFieldValue, typeName } from './parse-field.js';
import { type RelatedRef, resolveRelated } from './resolve-related.js';
import { checkGenericRelations } from './generic-relations.js';
import { checkUniqueness } from './uniqueness.js';
import { changelogMessageOf } from './changelog-message.js';
import { checkTagOverlap, tagEditsOf } from './tag-edits.js';
import { type Dialect, fieldAsWrittenIn, withFieldNames, writtenIn } from '../model/dialect.js';

export type WriteMode = 'create' | 'update' | 'replace';

export interface PreparedItem {
  index: number;
  id: number | null;
  before: Row | null;
  /** column values to store (create: all; update: the changed ones) */
  values: Row;
  m2m: Map<string, number[]>;
  tags: number[] | undefined;
  /** NetBox 4.6 `add_tags` / `remove_tags` of an update (tag-edits.ts); a create's additions are its `tags` */
  addTags?: number[];
  removeTags?: number[];
  /** the change records' `changelog_message` (changelog-message.ts) */
  message?: string;
  sent: Set<string>;
  errors: FieldErrors;
}

function defaultOf(f: FieldDef): unknown {
  const d = f.default;
  if (typeof d === 'function') return (d as () => unknown)();
  if (d !== undefined) return Array.isArray(d) ? [...d] : d;
  if (f.kind === 'choice' && f.blank) return '';
  if (f.nullable) return null;
  if (f.kind === 'string' || f.kind === 'text' || f.kind === 'slug') return '';
  if (f.kind === 'strings') return [];
  if (f.kind === 'boolean') return false;
  return null;
}

/**
 * Whether a PUT must send `key`: NetBox's serializer requires the fields `requiredIn` names, and a
 * PUT is validated as a whole object (DRF, partial=False). A create still fills them in (the
 * requesting user for a token or bookmark: docs/api-differences.md). Two such fields naming the
 * same model are one value under two names (a device's 3.4 `device_role` and 4.4 `role`): either
 * one sent will do, as writes accept both shapes in both dialects.
 */
function requiredToReplace(
  model: ModelDef,
  key: string,
  f: FieldDef,
  dialect: Dialect,
  input: Record<string, unknown>,
): boolean {
  if (!f.requiredIn?.includes(dialect)) return false;
  return !Object.entries(model.fields).some(([k, g]) => k !== key && k in input && g.requiredIn && g.to === f.to);
}

function prepareOne(
  model: ModelDef,
  sentInput: unknown,
  dialect: Dialect,
  superuserPage: boolean,
  importing: boolean,
  mode: WriteMode,
  refs: RelatedRef[],
  item: PreparedItem,
): Record<string, unknown> | null {
  const { errors } = item;
  if (!isPlainObject(sentInput)) {
    errors.add('non_field_errors', `Invalid data. Expected a dictionary, but got ${typeName(sentInput)}.`);
    return null;
  }
  // a field sent under its name in another API dialect (a rack's 4.4 `form_factor`) is that field
  const input = withFieldNames(model, sentInput);
  for (const [key, f] of Object.entries(model.fields)) {
    if (f.kind === 'computed' || f.kind === 'generic') continue;
    if (f.readOnly && !(f.pageWrite === 'superuser' && superuserPage)) continue;
    const column = columnOf(key, f);
    if (!(key in input)) {
      if (mode === 'update') continue;
      // no API shows a password: a copied user has none until one is set (users/user.model.ts)
      if (f.required && !(importing && f.kind === 'password')) errors.add(key, 'This field is required.');
      else if (mode === 'replace' && requiredToReplace(model, key, f, dialect, input))
        errors.add(key, 'This field is required.');
      else if (mode === 'create') {
        if (f.kind === 'm2m') item.m2m.set(key, []);
        else item.values[column] = defaultOf(f);
      }
      continue;
    }
    item.sent.add(key);
    const raw = input[key];
    if (raw === null) {
      if (f.kind === 'choice' && f.blank) item.values[column] = '';
      else if (f.nullable) item.values[column] = null;
      else if (f.kind === 'm2m') item.m2m.set(key, []);
      else errors.add(key, 'This field may not be null.');
      continue;
    }
    try {
      // a value in the dialect's unit (a VM's disk in 3.4's GB) is stored in the field's own
      const v = f.scaleIn
        ? writtenIn(f, parseFieldValue(fieldAsWrittenIn(f, dialect), raw), dialect)
        : parseFieldValue(f, raw);
      if (f.kind === 'fk') {
        refs.push({
          to: f.to!,
          value: v,
          done: (id, err) => (err ? errors.add(key, err) : (item.values[column] = id)),
        });
      } else if (f.kind === 'm2m') {
        const ids: number[] = [];
        item.m2m.set(key, ids);
        for (const member of v as unknown[]) {
          if (f.slugField) {
            slugMember(f.to!, f.slugField, key, member, ids, refs, item);
            continue;
          }
          refs.push({
            to: f.to!,
            value: member,
            done: (id, err) => (err ? errors.add(key, m2mMemberMessage(member, err)) : ids.push(id!)),
          });
        }
      } else item.values[column] = v;
    } catch (err) {
      if (!(err instanceof FieldError)) throw err;
      errors.add(key, err.message);
    }
  }
  if (model.tags) {
    const edits = tagEditsOf(input, mode === 'create', refs, errors, item.sent);
    item.tags = edits.tags;
    item.addTags = mode === 'create' ? undefined : edits.add;
    item.removeTags = edits.remove;
  }
  item.message = changelogMessageOf(input, errors);
  return input;
}

/**
 * DRF PrimaryKeyRelatedField's messages for a member of a list of ids: a missing or unusable id is
 * `Invalid pk`, a list or a boolean an incorrect type; a dictionary of attributes keeps the
 * resolver's message.
 */
function m2mMemberMessage(member: unknown, err: string): string {
  if (isPlainObject(member)) return err;
  if (Array.isArray(member) || typeof member === 'boolean')
    return `Incorrect type. Expected pk value, received ${typeName(member)}.`;
  return `Invalid pk "${member === null ? 'None' : String(member)}" - object does not exist.`;
}

/** One member of a slug-written m2m (DRF SlugRelatedField, its messages): a string naming the target. */
function slugMember(
  to: string,
  slugField: string,
  key: string,
  member: unknown,
  ids: number[],
  refs: RelatedRef[],
  item: PreparedItem,
) {
  if (typeof member !== 'string' && typeof member !== 'number') {
    item.errors.add(key, 'Invalid value.');
    return;
  }
  const value = String(member);
  refs.push({
    to,
    value: { [slugField]: value },
    done: (id, err) =>
      err ? item.errors.add(key, `Object with ${slugField}=${value} does not exist.`) : ids.push(id!),
  });
}

/**
 * The related rows read while a write's items are validated, kept for its prepare hooks (nothing is
 * written between the two): a bulk create's device types are read once, in one statement.
 */
const readWhilePreparing = new WeakMap<PreparedItem[], NonNullable<RequestContext['lookups']>>();
export function lookupsOf(items: PreparedItem[]): NonNullable<RequestContext['lookups']> {
  let lookups = readWhilePreparing.get(items);
  if (!lookups) readWhilePreparing.set(items, (lookups = new Map()));
  return lookups;
}

/** Prepares the items of a create (mode create) or update (update/replace; befores keyed by id). */
export async function prepareItems(
  rc: RequestContext,
  model: ModelDef,
  inputs: unknown[],
  mode: WriteMode,
  befores: Array<Row | null>,
): Promise<PreparedItem[]> {
  const refs: RelatedRef[] = [];
  const cfs = model.customFields ? await rc.app.customFields(rc, model.name) : [];
  const items: PreparedItem[] = [];
  const objects: Array<Record<string, unknown> | null> = [];
  // a copy (import-netbox/) sets what a superuser's page may: the source's superusers stay superusers
  const superuserPage = (!!rc.viaPage && !!rc.user?.is_superuser) || !!rc.importing;
  inputs.forEach((input, index) => {
    const before = befores[index] ?? null;
    const item: PreparedItem = {
      index,
      id: before ? Number(before.id) : null,
      before,
      values: {},
      m2m: new Map(),
      tags: undefined,
      sent: new Set(),
      errors: new FieldErrors(),
    };
    items.push(item);
    objects.push(prepareOne(model, input, rc.dialect, superuserPage, !!rc.importing, mode, refs, item));
  });
  await resolveRelated(rc, refs);
  for (const item of items) await checkTagOverlap(rc, item.addTags, item.removeTags, item.errors);
  const withData: Array<{ id: number | null; data: Row; errors: FieldErrors }> = [];
  for (const [i, item] of items.entries()) {
    const obj = objects[i];
    if (!obj || !model.customFields) continue;
    if (mode === 'update' && !('custom_fields' in obj)) continue;
    const beforeCf = (item.before?.custom_field_data as Row | undefined) ?? null;
    const data = prepareCustomFields(cfs, obj.custom_fields, mode === 'create' ? null : (beforeCf ?? {}), item.errors);
    if (data) {
      await checkCustomFieldObjects(rc, cfs, data, item.errors);
      item.values.custom_field_data = data;
      item.sent.add('custom_fields');
      withData.push({ id: item.id, data, errors: item.errors });
    }
  }
  if (withData.length) await checkCustomFieldUniqueness(rc, model.table, cfs, withData);
  await checkGenericRelations(rc, model, items);
  await checkUniqueness(rc, model, items);
  if (model.hooks.validate) {
    const earlier: Row[] = [];
    // nothing is written while the items are validated: a related row is read once (row-by-id.ts lookupOne)
    const vrc: RequestContext = { ...rc, lookups: lookupsOf(items) };
    // the hook sees written m2m sets under their field names (ids), beside the column values
    const datas = new Map<PreparedItem, Row>();
    for (const item of items) {
      if (item.errors.empty && objects[item.index])
        datas.set(item, { ...(item.before ?? {}), ...item.values, ...Object.fromEntries(item.m2m) });
    }
    if (model.hooks.beforeValidate && datas.size > 1)
      await model.hooks.beforeValidate({ rc: vrc, items: [...datas.values()] });
    for (const [item, data] of datas) {
      item.errors.merge(await model.hooks.validate({ rc: vrc, data, before: item.before, sent: item.sent, earlier }));
      if (item.errors.empty) earlier.push(data);
    }
  }
  return items;
}
