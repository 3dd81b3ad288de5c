/**
 * `changelog_message` (NetBox 4.4, #19713): a note a write may carry for the change records it
 * makes. It is not a field of any model: prepare.ts takes it off each written object, and each
 * change record of the objects the request names gets it (ChangeEntry.message); records of what a
 * write only cascades to do not (NetBox's `_changelog_message` is set on the instances written).
 * A DELETE carries it in its body: one object for a single delete, each item for a bulk one.
 */
import { Errors, FieldErrors } from '../errors.js';
import { isPlainObject, typeName } from './parse-field.js';

const CHANGELOG_MESSAGE = 'changelog_message';

/** ObjectChange.message is a varchar(200) (NetBox core/models/change_logging.py) */
const MAX_LENGTH = 200;

/**
 * The message an object carries, or undefined when it carries none; a bad one adds DRF
 * CharField's message under `changelog_message` (a string, not blank once trimmed, at most 200
 * characters) and gives undefined.
 */
export function changelogMessageOf(input: Record<string, unknown>, errors: FieldErrors): string | undefined {
  if (!(CHANGELOG_MESSAGE in input)) return undefined;
  const raw = input[CHANGELOG_MESSAGE];
  let problem: string | null = null;
  if (raw === null) problem = 'This field may not be null.';
  else if (typeof raw !== 'string') problem = 'Not a valid string.';
  else if (raw.trim() === '') problem = 'This field may not be blank.';
  else if (raw.trim().length > MAX_LENGTH) problem = `Ensure this field has no more than ${MAX_LENGTH} characters.`;
  if (problem) {
    errors.add(CHANGELOG_MESSAGE, problem);
    return undefined;
  }
  // DRF's CharField trims: the stored note is the trimmed text
  return (raw as string).trim();
}

/**
 * The message of a single DELETE, from its optional body (NetBox 4.4 takes it there): none, or an
 * object whose other keys are ignored, as NetBox's ChangeLogMessageSerializer ignores them.
 */
export function deleteMessageOf(body: unknown): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (!isPlainObject(body)) {
    throw Errors.validation({ non_field_errors: [`Invalid data. Expected a dictionary, but got ${typeName(body)}.`] });
  }
  const errors = new FieldErrors();
  const message = changelogMessageOf(body, errors);
  if (!errors.empty) throw Errors.validation(errors.errors);
  return message;
}

/** The messages of a bulk DELETE's items, by id; a bad one fails the request with errors aligned with the items. */
export function deleteMessagesOf(items: Array<Record<string, unknown>>): Map<number, string> {
  const out = new Map<number, string>();
  const errors = items.map((item) => {
    const e = new FieldErrors();
    const message = changelogMessageOf(item, e);
    if (message !== undefined) out.set(Number(item.id), message);
    return e;
  });
  if (errors.some((e) => !e.empty)) throw Errors.validation(errors.map((e) => e.errors));
  return out;
}
