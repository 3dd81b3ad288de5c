/**
 * Bulk rename's find and replace. With `use_regex` (NetBox's default), `find` is a regular
 * expression and `replace` may refer to its groups as NetBox users write them for Python's re.sub
 * (`\1`, `\g<1>`, `\g<name>`, named groups `(?P<name>...)`); JavaScript's own `$1` is taken literally
 * there, as Python takes it. Without, `find` is plain text, every occurrence replaced.
 *
 * A pattern is the user's: one that backtracks catastrophically (`(a+)+$`) would hold the event
 * loop, so the replacements run in a vm context with a time limit, and the pattern and the
 * replacement are capped in length.
 */
import vm from 'node:vm';

export const FIND_MAX = 200;
const TIME_LIMIT_MS = 500;

export type RenameResult = { names: string[] } | { error: string; field: 'find' | 'replace' };

/** Python's replacement syntax as JavaScript's: `$` literal, group references as `$n` / `$<name>` */
function jsReplacement(python: string): string {
  return python
    .replace(/\$/g, '$$$$')
    .replace(/\\g<(\d+)>/g, '$$$1')
    .replace(/\\g<([A-Za-z_]\w*)>/g, '$$<$1>')
    .replace(/\\(\d{1,2})/g, '$$$1');
}

export function renameAll(names: string[], find: string, replace: string, useRegex: boolean): RenameResult {
  if (find === '') return { error: 'This field is required.', field: 'find' };
  if (find.length > FIND_MAX)
    return { error: `Ensure this field has no more than ${FIND_MAX} characters.`, field: 'find' };
  if (replace.length > FIND_MAX)
    return { error: `Ensure this field has no more than ${FIND_MAX} characters.`, field: 'replace' };
  if (!useRegex) return { names: names.map((n) => n.split(find).join(replace)) };
  let re: RegExp;
  try {
    re = new RegExp(find.replace(/\(\?P</g, '(?<'), 'g');
  } catch (err) {
    return {
      error: `Invalid regular expression: ${(err as Error).message.replace(/^Invalid regular expression: /, '')}`,
      field: 'find',
    };
  }
  const rep = jsReplacement(replace);
  try {
    const out = vm.runInNewContext(
      'names.map((n) => n.replace(re, rep))',
      { names, re, rep },
      { timeout: TIME_LIMIT_MS },
    );
    return { names: Array.from(out as string[], String) };
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT')
      return { error: 'This regular expression takes too long on these names: simplify it.', field: 'find' };
    return { error: `The replacement failed: ${(err as Error).message}`, field: 'replace' };
  }
}
