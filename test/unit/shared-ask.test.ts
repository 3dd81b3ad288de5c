/**
 * sharedAsk (db/shared-ask.ts): concurrent askers share statements, and none is answered by a
 * statement sent before it asked.
 */
import { describe, expect, it } from 'vitest';
import { sharedAsk } from '../../src/db/shared-ask.js';

/** an ask whose answers are released by hand; each answer is the number of the statement */
function manual() {
  const pending: Array<() => void> = [];
  let sent = 0;
  const ask = () => {
    const n = ++sent;
    return new Promise<number>((resolve) => pending.push(() => resolve(n)));
  };
  const settle = async () => {
    pending.shift()!();
    // let the continuations run (the queued statement is sent once the running one settled)
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  return { ask, settle, sent: () => sent };
}

describe('sharedAsk', () => {
  it('sends at once when nothing is on its way', async () => {
    const m = manual();
    const get = sharedAsk(m.ask);
    const a = get();
    expect(m.sent()).toBe(1);
    await m.settle();
    expect(await a).toBe(1);
    const b = get();
    expect(m.sent()).toBe(2);
    await m.settle();
    expect(await b).toBe(2);
  });

  it('lets askers that arrive while a statement is on its way share the next one, sent after it settles', async () => {
    const m = manual();
    const get = sharedAsk(m.ask);
    const first = get();
    const late = [get(), get(), get()];
    expect(m.sent()).toBe(1); // the late ones wait: statement 1 was sent before they asked
    await m.settle();
    expect(await first).toBe(1);
    expect(m.sent()).toBe(2);
    const later = get(); // statement 2 is on its way: this one waits for statement 3
    await m.settle();
    expect(await Promise.all(late)).toEqual([2, 2, 2]);
    expect(m.sent()).toBe(3);
    await m.settle();
    expect(await later).toBe(3);
  });

  it('passes a failure to those who shared the statement, and asks anew afterwards', async () => {
    let fail = true;
    const get = sharedAsk(async () => {
      if (fail) throw new Error('down');
      return 'ok';
    });
    await expect(Promise.all([get(), get()])).rejects.toThrow('down');
    fail = false;
    expect(await get()).toBe('ok');
  });
});
