/**
 * Where one read goes, decided from what is known of the replicas and of the reader's own last
 * write (README.md, "The decision"). Pure: the replica set feeds it positions it read a few ms ago.
 */

/** What the replica set last learned of one replica. */
export interface ReplicaView {
  /** WAL replayed (a pg_lsn as a number of bytes); null while unknown (never asked, or down) */
  replayed: bigint | null;
  /** how long WAL the replica holds has been waiting to be applied, in ms (replica-node.ts) */
  lagMs: number;
  /** true while the replica is skipped after a fault, until it is asked again */
  down: boolean;
}

export type ReadChoice =
  | { kind: 'replica'; index: number }
  /** the reader's write is not replayed yet, but this replica is close: ask again shortly */
  | { kind: 'wait'; index: number }
  | { kind: 'primary' };

export interface ChoiceLimits {
  /** DATABASE_REPLICA_MAX_LAG_MS: a replica further behind is skipped */
  maxLagMs: number;
  /** a reader waits for its write on a replica only if that replica lags less than this */
  waitMs: number;
}

/**
 * `fence`: the WAL position after the reader's last commit (null: no write known), which a replica
 * must have replayed before it may answer that reader (read-your-writes); `turn` spreads readers
 * over the replicas that qualify (a counter).
 */
export function chooseReader(
  replicas: readonly ReplicaView[],
  fence: bigint | null,
  limits: ChoiceLimits,
  turn: number,
): ReadChoice {
  const usable: number[] = [];
  for (let i = 0; i < replicas.length; i++) {
    const r = replicas[i]!;
    if (!r.down && r.replayed !== null && r.lagMs <= limits.maxLagMs) usable.push(i);
  }
  const caughtUp = usable.filter((i) => fence === null || replicas[i]!.replayed! >= fence);
  if (caughtUp.length > 0) return { kind: 'replica', index: caughtUp[turn % caughtUp.length]! };
  // the furthest replica that is not far behind may replay the write within the wait
  let best = -1;
  for (const i of usable) {
    if (replicas[i]!.lagMs >= limits.waitMs) continue;
    if (best < 0 || replicas[i]!.replayed! > replicas[best]!.replayed!) best = i;
  }
  return best >= 0 ? { kind: 'wait', index: best } : { kind: 'primary' };
}

/** A pg_lsn (`16/B374D848`: high and low 32 bits in hex) as a number of bytes. */
export function parseLsn(text: string): bigint {
  const m = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i.exec(text);
  if (!m) throw new Error(`not a pg_lsn: "${text}"`);
  return (BigInt(`0x${m[1]}`) << 32n) + BigInt(`0x${m[2]}`);
}
