/**
 * Contract: the read side of every writable model - list envelope and pagination, brief forms,
 * detail, 404, HEAD, OPTIONS, Allow, and the headers on every response.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import {
  BASE,
  DETAIL_ALLOW,
  LIST_ALLOW,
  MISSING_ID,
  createMany,
  createOne,
  defOf,
  detailPath,
  expectCommonHeaders,
  getJson,
  idsOf,
  makeContractApp,
} from './harness.js';
import { type Json, WRITABLE } from './models.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeContractApp();
});
afterAll(async () => t.close());

describe.each(WRITABLE)('$model read views', (c) => {
  const def = defOf(c);

  it('lists in a count/next/previous/results envelope paginated by limit and offset', async () => {
    const objs = await createMany(t, c, 4);
    const ids = objs.map((o) => o.id);
    const scope = ids.map((id) => `id=${id}`).join('&');
    const body = await getJson(t, `${c.path}?${scope}&ordering=id&limit=1&offset=2`);
    expect(Object.keys(body).sort()).toEqual(['count', 'next', 'previous', 'results']);
    expect(body.count).toBe(4);
    expect(idsOf(body)).toEqual([ids[2]]);
    for (const [link, offset] of [
      [body.next, '3'],
      [body.previous, '1'],
    ] as const) {
      expect(link).toMatch(new RegExp(`^${BASE}${c.path}\\?`));
      const url = new URL(link as string);
      expect(url.searchParams.get('limit')).toBe('1');
      expect(url.searchParams.get('offset')).toBe(offset);
      expect(url.searchParams.getAll('id')).toEqual(ids.map(String));
      expect(url.searchParams.get('ordering')).toBe('id');
    }
    const first = await getJson(t, `${c.path}?${scope}&ordering=id&limit=3`);
    expect(idsOf(first)).toEqual(ids.slice(0, 3));
    expect(first.previous).toBeNull();
    const last = await getJson(t, `${c.path}?${scope}&ordering=id&limit=3&offset=3`);
    expect(idsOf(last)).toEqual([ids[3]]);
    expect(last.next).toBeNull();
  });

  // a known bug runs as an expected failure, so fixing it turns this red until the marker goes
  const briefIt = c.knownBugs?.brief ? it.fails : it;
  briefIt(
    `returns exactly id, url, display, ${c.briefFields.join(', ')} with ?brief=1 on list and detail`,
    async () => {
      const obj = await createOne(t, c);
      const expected = ['id', 'url', ...(c.briefWithoutDisplay ? [] : ['display']), ...c.briefFields].sort();
      const list = await getJson(t, `${c.path}?brief=1&id=${obj.id}`);
      expect(list.count).toBe(1);
      const item = (list.results as Json[])[0]!;
      expect(Object.keys(item).sort()).toEqual(expected);
      const detail = await getJson(t, `${detailPath(c, obj.id)}?brief=1`);
      expect(Object.keys(detail).sort()).toEqual(expected);
      expect(detail).toEqual(item);
      expect(detail.url).toBe(`${BASE}${detailPath(c, obj.id)}`);
      if (!c.briefWithoutDisplay) expect(detail.display).toBe(obj.display);
      for (const k of c.briefFields) if (k in obj && !c.briefOwnForm?.includes(k)) expect(detail[k], k).toEqual(obj[k]);
    },
  );

  it('answers a detail GET with the representation the create returned', async () => {
    const obj = await createOne(t, c);
    const body = await getJson(t, detailPath(c, obj.id));
    expect(body).toEqual(obj);
    expect(body.url).toBe(`${BASE}${detailPath(c, obj.id)}`);
    expect(typeof body.display).toBe('string');
    expect(body.display).not.toBe('');
  });

  it('answers 404 {"detail":"Not found."} for a missing or malformed id', async () => {
    for (const id of [MISSING_ID, 'abc']) {
      const res = await t.get(detailPath(c, id));
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: 'Not found.' });
    }
  });

  it('answers HEAD on list and detail with 200 and no body', async () => {
    const obj = await createOne(t, c);
    for (const url of [c.path, detailPath(c, obj.id)]) {
      const res = await t.request('HEAD', url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe('');
    }
  });

  it('describes POST and PUT with choices in OPTIONS for a superuser', async () => {
    const res = await t.request('OPTIONS', c.path);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.name).toBe(def.verboseName.replace(/\b\w/g, (ch) => ch.toUpperCase()));
    expect(Object.keys(body.actions).sort()).toEqual(['POST', 'PUT']);
    const post = body.actions.POST as Record<string, Json>;
    expect(post.id).toMatchObject({ read_only: true });
    for (const [key, f] of Object.entries(def.fields)) {
      // a field NetBox 4 added is described to 4.4 requests only (test/api/dialect/)
      if (f.dialect && f.dialect !== '3.4') {
        expect(post[key], key).toBeUndefined();
        continue;
      }
      expect(post[key], key).toBeDefined();
      if (f.kind === 'choice' && !f.readOnly) {
        const choices = post[key]!.choices as Json[];
        expect(
          choices.map((ch) => ch.value),
          key,
        ).toEqual(f.choices!.choices.map((ch) => ch.value));
        for (const ch of choices) expect(Object.keys(ch).sort()).toEqual(['display_name', 'value']);
      }
    }
    const required = Object.entries(post)
      .filter(([, v]) => v.required)
      .map(([k]) => k);
    expect(required.sort()).toEqual([...(c.required ?? [])].sort());
  });

  it('describes only PUT in OPTIONS on a detail view', async () => {
    const obj = await createOne(t, c);
    const res = await t.request('OPTIONS', detailPath(c, obj.id));
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json().actions)).toEqual(['PUT']);
  });

  it('omits actions from OPTIONS without a token', async () => {
    const res = await t.request('OPTIONS', c.path, { token: null });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).not.toHaveProperty('actions');
    expect(body).toMatchObject({
      description: expect.any(String),
      renders: expect.any(Array),
      parses: expect.any(Array),
    });
  });

  it('sends the Allow header of list and detail views', async () => {
    const obj = await createOne(t, c);
    expect((await t.get(c.path)).headers.allow).toBe(LIST_ALLOW);
    expect((await t.get(detailPath(c, obj.id))).headers.allow).toBe(DETAIL_ALLOW);
    expect((await t.get(detailPath(c, MISSING_ID))).headers.allow).toBe(DETAIL_ALLOW);
  });

  it('sends X-Request-ID and API-Version on errors too (404, 400, 405, 403)', async () => {
    const responses = [
      await t.get(detailPath(c, MISSING_ID)),
      await t.get(`${c.path}?id=not-a-number`),
      await t.post(detailPath(c, MISSING_ID), {}),
      await t.get(c.path, null),
    ];
    expect(responses.map((r) => r.statusCode)).toEqual([404, 400, 405, 403]);
    const ids = new Set(responses.map((r) => r.headers['x-request-id']));
    expect(ids.size).toBe(responses.length);
    for (const r of responses) expectCommonHeaders(r, c.dialect ?? '3.4');
  });
});
