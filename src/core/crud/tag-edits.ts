/**
 * Tags written to an object: `tags` (the whole set) and NetBox 4.6's `add_tags` / `remove_tags`
 * (#21771), which change the set without replacing it. Each is a list in the forms `tags` takes
 * (ids, `{name}`, `{slug}`, a slug string). As NetBox's TaggableModelSerializer: `tags` cannot come
 * with a non-empty `add_tags` or `remove_tags`, a create cannot remove, and one tag cannot be both
 * added and removed. Stricter than NetBox: `tags: []` beside `add_tags` is refused too (NetBox
 * clears the tags and drops the additions without a word; docs/api-differences.md, "Strict input").
 */
import { sql } from 'kysely';
import type { RequestContext } from '../context.js';
import type { FieldErrors } from '../errors.js';
import type { ModelDef } from '../model/types.js';
import { typeName } from './parse-field.js';
import type { RelatedRef } from './resolve-related.js';

const ADD_TAGS = 'add_tags';
const REMOVE_TAGS = 'remove_tags';

/** What an item says about its tags once its references are resolved: ids, in the order given. */
interface TagEdits {
  tags: number[] | undefined;
  add: number[] | undefined;
  remove: number[] | undefined;
}

/** A list of tags under `key`, queued for resolution into ids; undefined (and an error) when not a list. */
function tagList(key: string, value: unknown, refs: RelatedRef[], errors: FieldErrors): number[] | undefined {
  if (value === null || !Array.isArray(value)) {
    errors.add(key, `Expected a list of items but got type "${typeName(value)}".`);
    return undefined;
  }
  const ids: number[] = [];
  for (const t of value) {
    refs.push({
      to: 'extras.tag',
      value: typeof t === 'string' && !/^\d+$/.test(t) ? { slug: t } : t,
      done: (id, err) => (err ? errors.add(key, err) : ids.push(id!)),
    });
  }
  return ids;
}

/**
 * The tag lists an object carries, queued for resolution, with the checks that need no ids. On a
 * create, `add_tags` is the object's set of tags (NetBox adds them to the new object).
 */
export function tagEditsOf(
  input: Record<string, unknown>,
  creating: boolean,
  refs: RelatedRef[],
  errors: FieldErrors,
  sent: Set<string>,
): TagEdits {
  const out: TagEdits = { tags: undefined, add: undefined, remove: undefined };
  const has = (key: string) => key in input;
  if (has('tags')) {
    sent.add('tags');
    out.tags = tagList('tags', input.tags, refs, errors);
  }
  const nonEmpty = (key: string) => has(key) && !(Array.isArray(input[key]) && input[key].length === 0);
  if (has('tags') && (nonEmpty(ADD_TAGS) || nonEmpty(REMOVE_TAGS))) {
    errors.add('tags', 'Cannot specify "tags" together with "add_tags" or "remove_tags".');
    return out;
  }
  if (creating && nonEmpty(REMOVE_TAGS)) {
    errors.add(REMOVE_TAGS, 'Cannot use "remove_tags" when creating a new object.');
    return out;
  }
  if (has(ADD_TAGS)) {
    sent.add('tags');
    out.add = tagList(ADD_TAGS, input[ADD_TAGS], refs, errors);
    if (creating && !has('tags')) out.tags = out.add;
  }
  if (has(REMOVE_TAGS)) {
    sent.add('tags');
    out.remove = tagList(REMOVE_TAGS, input[REMOVE_TAGS], refs, errors);
  }
  return out;
}

/** After resolution: a tag both added and removed is an error naming the tags (NetBox's message). */
export async function checkTagOverlap(
  rc: RequestContext,
  add: number[] | undefined,
  remove: number[] | undefined,
  errors: FieldErrors,
): Promise<void> {
  if (!add?.length || !remove?.length) return;
  const removed = new Set(remove);
  const both = [...new Set(add.filter((id) => removed.has(id)))];
  if (!both.length) return;
  const names = await sql<{
    name: string;
  }>`select name from extras_tag where id = any(${both}::bigint[]) order by name`.execute(rc.q);
  errors.add(
    REMOVE_TAGS,
    `Tags may not be present in both "add_tags" and "remove_tags": ${names.rows.map((r) => r.name).join(', ')}`,
  );
}

/**
 * Applies the additions and removals of an update: tags added once (an object already tagged
 * keeps its row), removed where present. Two statements for the whole request at most.
 */
export async function writeTagEdits(
  rc: RequestContext,
  model: ModelDef,
  items: Array<{ id: number | null; add?: number[]; remove?: number[] }>,
): Promise<void> {
  const added = items.flatMap((i) => [...new Set(i.add ?? [])].map((tag) => [i.id!, tag] as const));
  const removed = items.flatMap((i) => [...new Set(i.remove ?? [])].map((tag) => [i.id!, tag] as const));
  if (added.length) {
    await sql`insert into extras_taggeditem (content_type, object_id, tag_id)
      select ${model.name}, o, t from unnest(${added.map((a) => a[0])}::bigint[], ${added.map((a) => a[1])}::bigint[]) as u(o, t)
      on conflict do nothing`.execute(rc.q);
  }
  if (removed.length) {
    await sql`delete from extras_taggeditem as ti using unnest(${removed.map((r) => r[0])}::bigint[], ${removed.map((r) => r[1])}::bigint[]) as u(o, t)
      where ti.content_type = ${model.name} and ti.object_id = u.o and ti.tag_id = u.t`.execute(rc.q);
  }
}
