/**
 * The few plain HTTP calls the harness makes outside autocannon (seeding, probes), with the
 * benchmark token. Every call fails loudly on a non-2xx answer, so a broken seed never produces
 * quiet nonsense figures.
 */
export interface Api {
  base: string;
  token: string;
}

export async function call<T = unknown>(api: Api, method: string, path: string, body?: unknown, timeoutMs = 300_000): Promise<T> {
  const res = await fetch(`${api.base}${path}`, {
    method,
    headers: { Authorization: `Token ${api.token}`, Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  }).catch((e: Error & { cause?: Error }) => {
    // undici says only "fetch failed"; the cause (reset, refused, timeout) is what tells why
    throw new Error(`${method} ${path}: ${e.message}${e.cause ? ` (${e.cause.message})` : ''}`);
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 1000)}`);
  return (text ? JSON.parse(text) : null) as T;
}
