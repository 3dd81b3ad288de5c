/**
 * The name a statement is prepared under on every pool connection: a hash of its text, so the same
 * text has the same name on each. PostgreSQL then parses and plans it once per connection
 * (PostgreSQL docs: PREPARE; pg's docs: "Prepared statements" take a `name`).
 */
import { createHash } from 'node:crypto';
import { worthNaming } from '../statement-names.js';

const statementNames = new Map<string, string>();

/** the statement's name, or undefined to run it unnamed (statement-names.ts says which) */
export function nameFor(text: string): string | undefined {
  let name = statementNames.get(text);
  if (name) return name;
  if (!worthNaming(text, statementNames.size)) return undefined;
  name = `s${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
  statementNames.set(text, name);
  return name;
}
