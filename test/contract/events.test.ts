/**
 * Contract: every create, update and delete of a writable, change-logged model puts one event per
 * object in the outbox when an enabled event rule listens, in the same transaction,
 * carrying the object as the API renders it and the change log's snapshots.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { createOne, dataFor, defOf, detailPath, makeContractApp, resolve } from './harness.js';
import { type Json, WRITABLE } from './models.js';
import { uniq } from '../factories/index.js';

let t: TestApp;
let webhookId: number;
beforeAll(async () => {
  t = await makeContractApp();
  const hook = await t.post('/api/extras/webhooks/', {
    name: uniq('contract-hook'),
    payload_url: 'http://127.0.0.1:9/contract',
  });
  webhookId = hook.json().id;
});
afterAll(async () => t.close());

interface EventRow {
  event: string;
  object_id: number;
  data: Json;
  snapshots: { prechange: Json | null; postchange: Json | null };
  request_id: string;
}

const eventsOf = async (model: string, requestId: string) =>
  (
    await sql<EventRow>`select event, object_id, data, snapshots, request_id::text from core_event
    where model = ${model} and request_id = ${requestId}::uuid order by object_id`.execute(t.db.kysely)
  ).rows;

describe.each(WRITABLE.filter((c) => defOf(c).changelog))('$model events', (c) => {
  it('enqueues created, updated and deleted events with the REST data and snapshots', async () => {
    const rule = await t.post('/api/extras/event-rules/', {
      name: uniq('contract-rule'),
      content_types: [c.model],
      type_create: true,
      type_update: true,
      type_delete: true,
      action_object_id: webhookId,
    });
    expect(rule.statusCode, rule.body).toBe(201);
    try {
      const data = await dataFor(t, c, 2);
      const res = await t.post(c.path, data);
      expect(res.statusCode, res.body).toBe(201);
      const created = res.json() as Json[];
      const events = await eventsOf(c.model, String(res.headers['x-request-id']));
      expect(events.map((e) => e.event)).toEqual(['created', 'created']);
      events.forEach((e, i) => {
        expect(Number(e.object_id)).toBe(created[i]!.id);
        expect(e.data).toEqual(created[i]);
        expect(e.snapshots.prechange).toBeNull();
        expect(e.snapshots.postchange).not.toBeNull();
      });

      const one = c.update ? created[0]! : await createOne(t, c);
      if (c.update) {
        const patched = await t.patch(detailPath(c, one.id), resolve(c.update));
        expect(patched.statusCode, patched.body).toBe(200);
        const [updated] = await eventsOf(c.model, String(patched.headers['x-request-id']));
        expect(updated).toMatchObject({ event: 'updated', data: patched.json() });
        expect(updated!.snapshots.prechange).not.toBeNull();
      }
      const del = await t.del(detailPath(c, one.id));
      expect(del.statusCode, del.body).toBe(204);
      const deleted = (await eventsOf(c.model, String(del.headers['x-request-id']))).find(
        (e) => Number(e.object_id) === one.id,
      );
      expect(deleted).toMatchObject({ event: 'deleted' });
      expect(deleted!.snapshots.postchange).toBeNull();
      expect((deleted!.data as Json).id).toBe(one.id);
    } finally {
      await t.del(`/api/extras/event-rules/${rule.json().id}/`);
    }
  });
});
