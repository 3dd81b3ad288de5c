/**
 * The name a statement is prepared under on every connection of a pool: a hash of its text, so the
 * same text has the same name on each. PostgreSQL then parses and plans it once per connection
 * (PostgreSQL docs: PREPARE; pg's docs: "Prepared statements" take a `name`). The budget of named
 * texts (statement-names.ts) is the pool's: each pool (a service process has one; each test app
 * opens its own) starts with all of it.
 */
import { createHash } from 'node:crypto';
import { worthNaming } from '../statement-names.js';

export class StatementNames {
  private readonly names = new Map<string, string>();

  /** `named` false: every statement runs unnamed (behind PgBouncer, pgbouncer.ts) */
  constructor(private readonly named = true) {}

  /** the statement's name, or undefined to run it unnamed (statement-names.ts says which) */
  nameFor(text: string): string | undefined {
    if (!this.named) return undefined;
    let name = this.names.get(text);
    if (name) return name;
    if (!worthNaming(text, this.names.size)) return undefined;
    name = `s${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
    this.names.set(text, name);
    return name;
  }
}
