/**
 * The few plain HTTP calls the harness makes outside autocannon (seeding, probes), with the
 * benchmark token. Every call fails loudly on a non-2xx answer, so a broken seed never produces
 * quiet nonsense figures.
 *
 * Made with node:http on kept-alive connections rather than fetch: the bulk load's client shares
 * the two cores with the server and PostgreSQL, and fetch (undici's streams) took 31-33 us of CPU
 * per object written against 19-21 here, time the service under test
 * lost to its load generator.
 */
import http from 'node:http';

export interface Api {
  base: string;
  token: string;
}

// one pool of kept-alive sockets for the whole harness (a call at a time per socket)
const agent = new http.Agent({ keepAlive: true });

export function call<T = unknown>(
  api: Api,
  method: string,
  path: string,
  body?: unknown,
  timeoutMs = 300_000,
): Promise<T> {
  const data = body === undefined ? undefined : JSON.stringify(body);
  const headers: http.OutgoingHttpHeaders = { Authorization: `Token ${api.token}`, Accept: 'application/json' };
  if (data !== undefined)
    Object.assign(headers, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(data) });
  return new Promise<T>((resolve, reject) => {
    const fail = (e: Error) => reject(new Error(`${method} ${path}: ${e.message}`));
    const req = http.request(`${api.base}${path}`, { method, agent, headers, timeout: timeoutMs }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('error', fail);
      res.on('end', () => {
        const text = Buffer.concat(parts).toString('utf8');
        const status = res.statusCode ?? 0;
        if (status < 200 || status > 299)
          reject(new Error(`${method} ${path} answered ${status}: ${text.slice(0, 1000)}`));
        else {
          try {
            resolve((text ? JSON.parse(text) : null) as T);
          } catch (e) {
            fail(e as Error);
          }
        }
      });
    });
    // the socket's own errors (refused, reset) name the cause, unlike fetch's "fetch failed"
    req.on('error', fail);
    req.on('timeout', () => req.destroy(new Error(`no answer in ${timeoutMs} ms`)));
    req.end(data);
  });
}
