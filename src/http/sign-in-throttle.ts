/**
 * A growing wait between failed sign-ins for one username from one client address, so guessing a
 * password at /login/ slows down with every miss: the first FREE_FAILURES mistakes cost nothing,
 * then each further attempt must wait twice as long as the one before (1 s, 2 s, 4 s ... up to
 * MAX_WAIT_SEC). Keyed by username AND address, so someone guessing from elsewhere cannot lock the
 * real user out; counted in the database, so several processes count together. A successful sign-in
 * clears the count. Unknown usernames are counted like known ones: the answer must not reveal which
 * usernames exist.
 */
import { sql } from 'kysely';
import type { Kdb } from '../db/client.js';

const FREE_FAILURES = 3;
const MAX_WAIT_SEC = 300;

function waitAfter(failures: number): number {
  if (failures < FREE_FAILURES) return 0;
  return Math.min(MAX_WAIT_SEC, 2 ** (failures - FREE_FAILURES));
}

/** Seconds the client must still wait before its next attempt counts (0 = go ahead). */
export async function secondsToWait(q: Kdb, username: string, clientIp: string): Promise<number> {
  const res = await sql<{ failures: number; since: number }>`select failures,
      extract(epoch from (now() - last_failure))::float8 as since
    from users_signin_failure where username = ${username} and client_ip = ${clientIp}`.execute(q);
  const row = res.rows[0];
  if (!row) return 0;
  return Math.max(0, Math.ceil(waitAfter(Number(row.failures)) - Number(row.since)));
}

export async function recordFailure(q: Kdb, username: string, clientIp: string): Promise<void> {
  await sql`insert into users_signin_failure (username, client_ip, failures, last_failure)
    values (${username}, ${clientIp}, 1, now())
    on conflict (username, client_ip) do update set failures = users_signin_failure.failures + 1, last_failure = now()`.execute(
    q,
  );
}

export async function clearFailures(q: Kdb, username: string, clientIp: string): Promise<void> {
  await sql`delete from users_signin_failure where username = ${username} and client_ip = ${clientIp}`.execute(q);
}
