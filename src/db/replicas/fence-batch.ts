/**
 * The write positions of the readers arriving together, asked of the primary in one statement.
 *
 * Every signed-in read on a replica first needs its user's last write position from the primary
 * (README.md, "The flow of a read"): one statement per read, which at many reads a second is most
 * of what the primary does for them (docs/scale.md). One such statement is in flight per process:
 * a reader finding none sends its own at once, and the readers that arrive while one is out share
 * the next, sent when it returns. A reader joins only a statement not yet sent, so the statement
 * starts after its request arrived and sees every write whose response the client had before
 * sending it: read-your-writes holds as with a statement of its own.
 */
import type { PostgresPool } from 'kysely';

// past Kysely, as replica-set.ts's other statements on the primary: no data of the service's
const FENCES_OF = 'select user_id::int as user_id, lsn::text as lsn from users_write_position where user_id = any($1)';

interface Waiter {
  resolve(lsn: string | null): void;
  reject(err: unknown): void;
}

export class FenceBatch {
  private waiting = new Map<number, Waiter[]>();
  private inFlight = false;
  /** statements sent, and positions asked for (a reader each): their ratio is what batching saves */
  statements = 0;
  lookups = 0;

  constructor(private readonly primary: PostgresPool) {}

  /** The last write position of `userId` as the primary has it now, or null if it never wrote. */
  positionOf(userId: number): Promise<string | null> {
    this.lookups++;
    return new Promise((resolve, reject) => {
      const list = this.waiting.get(userId);
      if (list) list.push({ resolve, reject });
      else this.waiting.set(userId, [{ resolve, reject }]);
      if (!this.inFlight) void this.send();
    });
  }

  private async send(): Promise<void> {
    const batch = this.waiting;
    this.waiting = new Map();
    this.inFlight = true;
    this.statements++;
    try {
      const client = await this.primary.connect();
      let rows: Array<{ user_id: number; lsn: string }>;
      try {
        ({ rows } = await client.query<{ user_id: number; lsn: string }>(FENCES_OF, [[...batch.keys()]]));
      } finally {
        client.release();
      }
      const found = new Map(rows.map((r) => [Number(r.user_id), r.lsn]));
      for (const [user, waiters] of batch) for (const w of waiters) w.resolve(found.get(user) ?? null);
    } catch (err) {
      for (const waiters of batch.values()) for (const w of waiters) w.reject(err);
    } finally {
      this.inFlight = false;
      if (this.waiting.size > 0) void this.send();
    }
  }
}
