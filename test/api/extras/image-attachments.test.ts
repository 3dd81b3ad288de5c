/**
 * Image attachments (NetBox 3.7 extras.ImageAttachment): multipart uploads as pynetbox and curl send
 * them, the checks on the parent and the image, and the files on disk: named as NetBox names them,
 * replaced and deleted only once the write commits, never left behind by a rolled-back one.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { bmp, dataUri, gif, jpeg, multipart, png, webp } from '../../helpers/images.js';
import { signIn } from '../../helpers/web-session.js';
import { uniq, grant, makeSite, makeUser } from '../../factories/index.js';

const PATH = '/api/extras/image-attachments/';
let t: TestApp;
let media: string;

beforeAll(async () => {
  t = await makeTestApp();
  media = t.app.inventory.config.mediaRoot;
});
afterAll(async () => t.close());

type Parts = Parameters<typeof multipart>[0];
async function send(method: 'POST' | 'PATCH' | 'PUT', url: string, parts: Parts, token: string = t.token) {
  const { body, contentType } = multipart(parts);
  return t.app.inject({
    method,
    url,
    payload: body,
    headers: { 'content-type': contentType, authorization: `Token ${token}` },
  });
}

/** the stored file behind an attachment's URL */
const fileOf = (url: string) => join(media, decodeURIComponent(new URL(url).pathname.replace(/^\/media\//, '')));
const storedFiles = () =>
  existsSync(join(media, 'image-attachments')) ? readdirSync(join(media, 'image-attachments')).sort() : [];

describe('POST multipart', () => {
  it('stores the image, names the file as NetBox does and answers its URL and size', async () => {
    const site = await makeSite(t);
    const bytes = png(40, 30);
    const res = await send('POST', PATH, {
      content_type: 'dcim.site',
      object_id: site.id,
      name: 'Front view',
      image: { filename: 'IMG_1.PNG', contentType: 'image/png', data: bytes },
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      content_type: 'dcim.site',
      object_id: site.id,
      name: 'Front view',
      image_width: 40,
      image_height: 30,
      display: 'Front view',
    });
    expect(body.parent).toMatchObject({ id: site.id, url: `http://localhost:80/api/dcim/sites/${site.id}/` });
    // NetBox 3.7 image_upload: <type>_<object id>_<name>.<extension>, made path-safe (spaces -> _)
    expect(body.image).toBe(`http://localhost:80/media/image-attachments/site_${site.id}_Front_view.png`);
    expect(readFileSync(fileOf(body.image)).equals(bytes)).toBe(true);
    expect(res.headers.location).toBe(`http://localhost:80${PATH}${body.id}/`);
  });

  it.each([
    ['jpeg', jpeg(641, 479), 'jpg'],
    ['gif', gif(17, 9), 'gif'],
    ['webp', webp(300, 200), 'webp'],
    ['bmp', bmp(5, 7), 'bmp'],
  ])('reads the width and height of a %s from its header', async (_kind, bytes, ext) => {
    const site = await makeSite(t);
    const res = await send('POST', PATH, {
      content_type: 'dcim.site',
      object_id: site.id,
      image: { filename: `photo.${ext}`, data: bytes },
    });
    expect(res.statusCode, res.body).toBe(201);
    const sizes: Record<string, [number, number]> = { jpg: [641, 479], gif: [17, 9], webp: [300, 200], bmp: [5, 7] };
    expect([res.json().image_width, res.json().image_height]).toEqual(sizes[ext]);
    // without a name the client's file name is kept, and shown
    expect(res.json().image).toMatch(new RegExp(`/site_${site.id}_photo\\.${ext}$`));
    expect(res.json().display).toBe(`photo.${ext}`);
  });

  it('gives a second file of the same name a unique one', async () => {
    const site = await makeSite(t);
    const parts = () => ({
      content_type: 'dcim.site',
      object_id: site.id,
      name: 'same',
      image: { filename: 'a.png', data: png(2, 2) },
    });
    const a = (await send('POST', PATH, parts())).json();
    const b = (await send('POST', PATH, parts())).json();
    expect(a.image).toMatch(/site_\d+_same\.png$/);
    expect(b.image).toMatch(/site_\d+_same_[A-Za-z0-9]{7}\.png$/);
    expect(existsSync(fileOf(a.image)) && existsSync(fileOf(b.image))).toBe(true);
  });

  it('takes every type with image attachments (a device type: its name path-safe)', async () => {
    const mfr = (await t.post('/api/dcim/manufacturers/', { name: uniq('m'), slug: uniq('m') })).json();
    const dt = (
      await t.post('/api/dcim/device-types/', { manufacturer: mfr.id, model: uniq('dt'), slug: uniq('dt') })
    ).json();
    const res = await send('POST', PATH, {
      content_type: 'dcim.devicetype',
      object_id: dt.id,
      image: { filename: 'x.gif', data: gif(3, 3) },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().image).toMatch(new RegExp(`/image-attachments/device_type_${dt.id}_x\\.gif$`));
  });
});

describe('checks', () => {
  const before = () => storedFiles().length;

  it.each([
    ['text', Buffer.from('hello, not an image')],
    [
      'svg',
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><script>alert(1)</script></svg>'),
    ],
    ['truncated png', png(4, 4).subarray(0, 12)],
  ])('refuses %s bytes whatever their name: 400 under image, nothing stored', async (_k, bytes) => {
    const site = await makeSite(t);
    const n = before();
    const res = await send('POST', PATH, {
      content_type: 'dcim.site',
      object_id: site.id,
      image: { filename: 'evil.png', contentType: 'image/png', data: bytes },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      image: ['Upload a valid image. The file you uploaded was either not an image or a corrupted image.'],
    });
    expect(before()).toBe(n);
  });

  it('refuses an empty file and a write without one', async () => {
    const site = await makeSite(t);
    const empty = await send('POST', PATH, {
      content_type: 'dcim.site',
      object_id: site.id,
      image: { filename: 'a.png', data: Buffer.alloc(0) },
    });
    // an empty file part with an empty file name is a browser's untouched input: no file at all
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({ image: ['The submitted file is empty.'] });
    const none = await send('POST', PATH, { content_type: 'dcim.site', object_id: site.id, name: 'x' });
    expect(none.json()).toEqual({ image: ['No file was submitted.'] });
  });

  it('refuses a parent that does not exist', async () => {
    const res = await send('POST', PATH, {
      content_type: 'dcim.site',
      object_id: 987654321,
      image: { filename: 'a.png', data: png(1, 1) },
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json())).toEqual(['object_id']);
  });

  it('refuses a parent type without image attachments, and an unknown one', async () => {
    const tenant = (await t.post('/api/tenancy/tenants/', { name: uniq('t'), slug: uniq('t') })).json();
    const n = before();
    for (const type of ['tenancy.tenant', 'nope.nothing']) {
      const res = await send('POST', PATH, {
        content_type: type,
        object_id: tenant.id,
        image: { filename: 'a.png', data: png(1, 1) },
      });
      expect(res.statusCode, type).toBe(400);
      expect(Object.keys(res.json()), type).toEqual(['content_type']);
    }
    expect(before()).toBe(n);
  });

  it('refuses a malformed multipart body with 400', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: PATH,
      payload: '--abc\r\nContent-Disposition: form-data; name="name"\r\n\r\nno end',
      headers: { 'content-type': 'multipart/form-data; boundary=abc', authorization: `Token ${t.token}` },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/Multipart form parse error/);
  });

  it('answers 415 to a multipart body on any other route, as before', async () => {
    const { body, contentType } = multipart({ name: 'x', slug: 'x' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/dcim/sites/',
      payload: body,
      headers: { 'content-type': contentType, authorization: `Token ${t.token}` },
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ detail: 'Unsupported media type "multipart/form-data" in request.' });
  });
});

describe('a browser session', () => {
  // a cross-site page can post a multipart form without a preflight: the session's CSRF check applies
  it('uploads with its CSRF token, and is refused without one, storing nothing', async () => {
    const browser = await signIn(t, t.username, t.password);
    const site = await makeSite(t);
    const parts = () =>
      multipart({ content_type: 'dcim.site', object_id: site.id, image: { filename: 'b.png', data: png(2, 2) } });
    const files = storedFiles();
    const forged = parts();
    const refused = await t.app.inject({
      method: 'POST',
      url: PATH,
      payload: forged.body,
      headers: { 'content-type': forged.contentType, cookie: browser.cookieHeader(), origin: 'https://evil.example' },
    });
    expect(refused.statusCode).toBe(403);
    expect(storedFiles()).toEqual(files);
    const ok = parts();
    const res = await t.app.inject({
      method: 'POST',
      url: PATH,
      payload: ok.body,
      headers: { 'content-type': ok.contentType, cookie: browser.cookieHeader(), 'x-csrftoken': browser.csrf() },
    });
    expect(res.statusCode, res.body).toBe(201);
  });
});

describe('size limit (IMAGE_ATTACHMENT_MAX_SIZE)', () => {
  let small: TestApp;
  beforeAll(async () => {
    small = await makeTestApp({ IMAGE_ATTACHMENT_MAX_SIZE: '2000' });
  });
  afterAll(async () => small.close());
  const post = async (bytes: Buffer, site: number) => {
    const { body, contentType } = multipart({
      content_type: 'dcim.site',
      object_id: site,
      image: { filename: 'a.bmp', data: bytes },
    });
    return small.app.inject({
      method: 'POST',
      url: PATH,
      payload: body,
      headers: { 'content-type': contentType, authorization: `Token ${small.token}` },
    });
  };

  it('takes an image within the limit, refuses a bigger one under image, and a far bigger body with 413', async () => {
    const site = (await small.post('/api/dcim/sites/', { name: uniq('s'), slug: uniq('s') })).json();
    expect(bmp(10, 10).length).toBeLessThan(2000);
    expect((await post(bmp(10, 10), site.id)).statusCode).toBe(201);
    const bigger = bmp(30, 30);
    const big = await post(bigger, site.id);
    expect(big.statusCode).toBe(400);
    expect(big.json()).toEqual({ image: [`Ensure this file is no larger than 2000 bytes (it has ${bigger.length}).`] });
    const huge = await post(bmp(400, 400), site.id); // 480 kB: past the body limit
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toEqual({ detail: 'Request body is too large.' });
  });
});

describe('JSON writes', () => {
  it('refuses a JSON create without an image, and an image that is a string, as NetBox does', async () => {
    const site = await makeSite(t);
    const none = await t.post(PATH, { content_type: 'dcim.site', object_id: site.id, name: 'x' });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toEqual({ image: ['No file was submitted.'] });
    const text = await t.post(PATH, { content_type: 'dcim.site', object_id: site.id, image: 'photo.png' });
    expect(text.json()).toEqual({ image: ['The submitted data was not a file. Check the encoding type on the form.'] });
  });

  it('creates from image_data, a base64 data: URI (extension), and renames with a JSON PATCH', async () => {
    const site = await makeSite(t);
    const res = await t.post(PATH, {
      content_type: 'dcim.site',
      object_id: site.id,
      name: 'json',
      image_data: dataUri(gif(6, 4), 'image/gif'),
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ image_width: 6, image_height: 4 });
    expect(res.json()).not.toHaveProperty('image_data');
    expect(res.json().image).toMatch(new RegExp(`/site_${site.id}_json\\.gif$`));
    const patched = await t.patch(`${PATH}${res.json().id}/`, { name: 'renamed' });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ name: 'renamed', image: res.json().image });
    const bad = await t.post(PATH, { content_type: 'dcim.site', object_id: site.id, image_data: 'aGVsbG8=' });
    expect(Object.keys(bad.json())).toEqual(['image_data']);
  });
});

describe('replace and delete', () => {
  async function attachment(name = uniq('img')) {
    const site = await makeSite(t);
    const res = await send('POST', PATH, {
      content_type: 'dcim.site',
      object_id: site.id,
      name,
      image: { filename: 'a.png', data: png(8, 8) },
    });
    expect(res.statusCode, res.body).toBe(201);
    return { site, obj: res.json() };
  }

  it('replaces the image with a multipart PATCH: the new file stored, the old one removed', async () => {
    const { obj } = await attachment();
    const res = await send('PATCH', `${PATH}${obj.id}/`, { image: { filename: 'b.jpg', data: jpeg(20, 10) } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ name: obj.name, image_width: 20, image_height: 10 });
    expect(res.json().image).toMatch(/\.jpg$/);
    expect(existsSync(fileOf(res.json().image))).toBe(true);
    expect(existsSync(fileOf(obj.image))).toBe(false);
  });

  it('renames with a multipart PATCH without a file, and replaces with a multipart PUT', async () => {
    const { site, obj } = await attachment();
    const renamed = await send('PATCH', `${PATH}${obj.id}/`, { name: 'new name' });
    expect(renamed.json()).toMatchObject({ name: 'new name', image: obj.image });
    const put = await send('PUT', `${PATH}${obj.id}/`, {
      content_type: 'dcim.site',
      object_id: site.id,
      name: 'put',
      image: { filename: 'c.gif', data: gif(2, 3) },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ name: 'put', image_width: 2, image_height: 3 });
    expect(existsSync(fileOf(obj.image))).toBe(false);
  });

  it('removes the file when the attachment is deleted', async () => {
    const { obj } = await attachment();
    expect(existsSync(fileOf(obj.image))).toBe(true);
    expect((await t.del(`${PATH}${obj.id}/`)).statusCode).toBe(204);
    expect(existsSync(fileOf(obj.image))).toBe(false);
  });

  it('deletes the attachments and their files with their parent', async () => {
    const { site, obj } = await attachment();
    expect((await t.del(`/api/dcim/sites/${site.id}/`)).statusCode).toBe(204);
    expect((await t.get(`${PATH}${obj.id}/`)).statusCode).toBe(404);
    expect(existsSync(fileOf(obj.image))).toBe(false);
  });

  it('leaves no file behind when the write rolls back, and keeps the old one', async () => {
    // a constrained permission is checked after the row is written: a violation rolls it all back
    const u = await makeUser(t);
    await grant(t, {
      object_types: ['extras.imageattachment'],
      actions: ['add', 'change', 'view'],
      users: [u.id],
      constraints: { name: 'allowed' },
    });
    const site = await makeSite(t);
    const files = storedFiles();
    const refused = await send(
      'POST',
      PATH,
      { content_type: 'dcim.site', object_id: site.id, name: 'other', image: { filename: 'r.png', data: png(3, 3) } },
      u.token,
    );
    expect(refused.statusCode).toBe(403);
    expect(storedFiles()).toEqual(files);

    const ok = await send(
      'POST',
      PATH,
      { content_type: 'dcim.site', object_id: site.id, name: 'allowed', image: { filename: 'r.png', data: png(3, 3) } },
      u.token,
    );
    expect(ok.statusCode, ok.body).toBe(201);
    const kept = storedFiles();
    const replace = await send(
      'PATCH',
      `${PATH}${ok.json().id}/`,
      { name: 'outside', image: { filename: 's.gif', data: gif(1, 1) } },
      u.token,
    );
    expect(replace.statusCode).toBe(403);
    expect(storedFiles()).toEqual(kept);
    expect(existsSync(fileOf(ok.json().image))).toBe(true);
  });
});

describe('GET /media/<file>', () => {
  it('serves the stored bytes with their type, nosniff and no script', async () => {
    const site = await makeSite(t);
    const bytes = jpeg(3, 2);
    const obj = (
      await send('POST', PATH, {
        content_type: 'dcim.site',
        object_id: site.id,
        name: 'served',
        image: { filename: 'a.jpeg', contentType: 'text/html', data: bytes },
      })
    ).json();
    const path = new URL(obj.image).pathname;
    const res = await t.app.inject({ method: 'GET', url: path, headers: { authorization: `Token ${t.token}` } });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(bytes)).toBe(true);
    // the type comes from the bytes, not from what the client claimed
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain('sandbox');
    const head = await t.app.inject({ method: 'HEAD', url: path });
    expect(head.statusCode).toBe(200);
  });

  it.each([
    '/media/image-attachments/nothing_here.png',
    '/media/../package.json',
    '/media/image-attachments/../../package.json',
    '/media/image-attachments/..%2F..%2Fpackage.json',
    '/media/%2e%2e/%2e%2e/package.json',
    '/media/image-attachments/%2Fetc%2Fpasswd',
    '/media//etc/passwd',
    '/media/image-attachments',
    '/media/image-attachments/.hidden',
  ])('answers 404 to %s', async (url) => {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode, res.body).toBe(404);
    expect(res.body).not.toContain('"name"');
  });

  it('asks for sign-in with LOGIN_REQUIRED, as NetBox serves media through its login check', async () => {
    const closed = await makeTestApp({ LOGIN_REQUIRED: 'true' });
    try {
      const site = (await closed.post('/api/dcim/sites/', { name: uniq('s'), slug: uniq('s') })).json();
      const { body, contentType } = multipart({
        content_type: 'dcim.site',
        object_id: site.id,
        image: { filename: 'a.png', data: png(1, 1) },
      });
      const obj = (
        await closed.app.inject({
          method: 'POST',
          url: PATH,
          payload: body,
          headers: { 'content-type': contentType, authorization: `Token ${closed.token}` },
        })
      ).json();
      const path = new URL(obj.image).pathname;
      expect((await closed.app.inject({ method: 'GET', url: path })).statusCode).toBe(403);
      expect((await closed.app.inject({ method: 'GET', url: path, headers: { accept: 'text/html' } })).statusCode).toBe(
        302,
      );
      expect((await closed.get(path)).statusCode).toBe(200);
    } finally {
      await closed.close();
    }
  });
});

describe('filters', () => {
  it('filters by content_type, content_type_id, object_id, name and q', async () => {
    const site = await makeSite(t);
    const a = (
      await send('POST', PATH, {
        content_type: 'dcim.site',
        object_id: site.id,
        name: `alpha-${site.id}`,
        image: { filename: 'a.png', data: png(1, 1) },
      })
    ).json();
    const ids = async (q: string) =>
      ((await t.get(`${PATH}?${q}`)).json().results as Array<{ id: number }>).map((r) => r.id);
    expect(await ids(`object_id=${site.id}&content_type=dcim.site`)).toEqual([a.id]);
    expect(await ids(`object_id=${site.id}&content_type=dcim.rack`)).toEqual([]);
    const ct = (await t.get('/api/extras/content-types/?app_label=dcim&model=site')).json().results[0].id;
    expect(await ids(`object_id=${site.id}&content_type_id=${ct}`)).toEqual([a.id]);
    expect(await ids(`object_id=${site.id}&content_type_id__n=${ct}`)).toEqual([]);
    expect(await ids(`name__ic=ALPHA-${site.id}`)).toEqual([a.id]);
    expect(await ids(`q=alpha-${site.id}`)).toEqual([a.id]);
    expect((await t.get(`${PATH}?content_type_id=x`)).statusCode).toBe(400);
  });
});

describe('OpenAPI', () => {
  it('documents multipart/form-data writes for image attachments only', async () => {
    const doc = (await t.get('/api/schema/?format=json')).json();
    const item = doc.paths['/api/extras/image-attachments/{id}/'];
    expect(Object.keys(doc.paths['/api/extras/image-attachments/'].post.requestBody.content)).toEqual([
      'application/json',
      'multipart/form-data',
    ]);
    expect(Object.keys(item.patch.requestBody.content)).toEqual(['application/json', 'multipart/form-data']);
    expect(Object.keys(item.put.requestBody.content)).toEqual(['application/json', 'multipart/form-data']);
    expect(Object.keys(doc.paths['/api/dcim/sites/'].post.requestBody.content)).toEqual(['application/json']);
  });
});

describe('GraphQL', () => {
  it("lists an object's image attachments (NetBox 3.7 ImageAttachmentsMixin), the image as its stored name", async () => {
    const site = await makeSite(t);
    const obj = (
      await send('POST', PATH, {
        content_type: 'dcim.site',
        object_id: site.id,
        name: 'gql',
        image: { filename: 'a.png', data: png(5, 6) },
      })
    ).json();
    const res = await t.post('/graphql/', {
      query: `{ site(id: ${site.id}) { image_attachments { id name image image_width image_height } } }`,
    });
    expect(res.statusCode, res.body).toBe(200);
    // graphene-django renders an ImageField as the file's name under MEDIA_ROOT
    expect(res.json().data.site.image_attachments).toEqual([
      {
        id: String(obj.id),
        name: 'gql',
        image: `image-attachments/site_${site.id}_gql.png`,
        image_width: 5,
        image_height: 6,
      },
    ]);
  });
});

describe('over a socket', () => {
  it("takes an upload encoded by fetch's FormData, as a browser sends it; a body too big is a 413, chunked or not", async () => {
    const own = await makeTestApp({ IMAGE_ATTACHMENT_MAX_SIZE: '4096' });
    try {
      const site = (await own.post('/api/dcim/sites/', { name: uniq('s'), slug: uniq('s') })).json();
      const address = await own.app.listen({ port: 0, host: '127.0.0.1' });
      const auth = { authorization: `Token ${own.token}` };
      const form = new FormData();
      form.append('content_type', 'dcim.site');
      form.append('object_id', String(site.id));
      form.append('name', 'Über "quoted"');
      form.append('image', new Blob([new Uint8Array(png(12, 34))], { type: 'image/png' }), 'from fetch.png');
      const res = await fetch(`${address}${PATH}`, { method: 'POST', body: form, headers: auth });
      const body = (await res.json()) as Record<string, unknown>;
      expect(res.status, JSON.stringify(body)).toBe(201);
      expect(body).toMatchObject({ name: 'Über "quoted"', image_width: 12, image_height: 34 });
      expect(body.image).toMatch(new RegExp(`/site_${site.id}_%C3%9Cber_quoted\\.png$`));
      const served = await fetch(`${address}${new URL(String(body.image)).pathname}`);
      expect(served.status).toBe(200);
      expect(Buffer.from(await served.arrayBuffer()).equals(png(12, 34))).toBe(true);

      // past the limit plus the room for fields: refused from its Content-Length...
      const tooBig = Buffer.alloc(4096 + 512 * 1024);
      const big = new FormData();
      big.append('image', new Blob([new Uint8Array(tooBig)]), 'big.png');
      expect((await fetch(`${address}${PATH}`, { method: 'POST', body: big, headers: auth })).status).toBe(413);
      // ...or, sent chunked without one, once that much has arrived
      const { body: raw, contentType } = multipart({ image: { filename: 'big.png', data: tooBig } });
      const chunked = new ReadableStream({
        start(c) {
          for (let at = 0; at < raw.length; at += 64 * 1024) c.enqueue(raw.subarray(at, at + 64 * 1024));
          c.close();
        },
      });
      const streamed = await fetch(`${address}${PATH}`, {
        method: 'POST',
        body: chunked,
        duplex: 'half',
        headers: { ...auth, 'content-type': contentType },
      } as RequestInit);
      expect(streamed.status).toBe(413);
      expect(await streamed.json()).toEqual({ detail: 'Request body is too large.' });
    } finally {
      await own.close();
    }
  });
});

describe('change log', () => {
  it('names the parent as the related object of every change, and keeps the stored name', async () => {
    const site = await makeSite(t);
    const obj = (
      await send('POST', PATH, {
        content_type: 'dcim.site',
        object_id: site.id,
        name: 'logged',
        image: { filename: 'a.png', data: png(1, 1) },
      })
    ).json();
    await t.patch(`${PATH}${obj.id}/`, { name: 'logged2' });
    await t.del(`${PATH}${obj.id}/`);
    const changes = (
      await t.get(
        `/api/extras/object-changes/?changed_object_type=extras.imageattachment&changed_object_id=${obj.id}&ordering=time`,
      )
    ).json().results;
    expect(changes.map((c: { action: { value: string } }) => c.action.value)).toEqual(['create', 'update', 'delete']);
    for (const c of changes) expect([c.related_object_type, c.related_object_id]).toEqual(['dcim.site', site.id]);
    expect(changes[0].postchange_data).toMatchObject({
      name: 'logged',
      image: `image-attachments/site_${site.id}_logged.png`,
      image_width: 1,
    });
    expect(changes[0].postchange_data).not.toHaveProperty('image_data');
  });
});

describe('browsable API', () => {
  it("links an object's page to its image attachments, only for types that take them", async () => {
    const browser = await signIn(t, t.username, t.password);
    const site = await makeSite(t);
    const page = await browser.request('GET', `/api/dcim/sites/${site.id}/`, { headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(
      `href="/api/extras/image-attachments/?content_type=dcim.site&amp;object_id=${site.id}"`,
    );
    const tenant = (await t.post('/api/tenancy/tenants/', { name: uniq('t'), slug: uniq('t') })).json();
    const other = await browser.request('GET', `/api/tenancy/tenants/${tenant.id}/`, {
      headers: { accept: 'text/html' },
    });
    expect(other.statusCode).toBe(200);
    expect(other.body).not.toContain('/api/extras/image-attachments/?');
  });
});
