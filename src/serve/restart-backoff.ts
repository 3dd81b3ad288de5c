/**
 * When to start a worker process again after it ended unexpectedly. The first restart is quick;
 * a worker that keeps dying soon after its start (a crash loop: a bad setting, a database that
 * refuses connections) waits twice as long each time, up to MAX_DELAY_MS, so the primary does not
 * spin forking processes. A worker that ran for HEALTHY_MS before dying starts the count again.
 */
export const FIRST_DELAY_MS = 250;
export const MAX_DELAY_MS = 30_000;
export const HEALTHY_MS = 60_000;

export interface RestartState {
  /** restarts in a row of workers that died before HEALTHY_MS */
  quickFailures: number;
}

/** The delay before the next start of a worker that lived `livedMs`; updates `state`. */
export function nextRestartDelay(state: RestartState, livedMs: number): number {
  state.quickFailures = livedMs >= HEALTHY_MS ? 1 : state.quickFailures + 1;
  return Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** (state.quickFailures - 1));
}
