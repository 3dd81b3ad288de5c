/**
 * One webhook delivery: the template context (spec: Template context), the URL, headers and body
 * rendered in the sandbox, the signatures, and the HTTP request. A 2XX answer is success; any other
 * status, a timeout, a refused connection or a TLS error is failure (spec: Delivery 3; Errors).
 *
 * Signatures: with a secret, `X-Hook-Signature` is the hex HMAC-SHA512 of the exact body bytes
 * (NetBox). Every delivery also carries the Standard Webhooks headers: `webhook-id` (the delivery's,
 * the same on every attempt), `webhook-timestamp` (seconds), and with a secret `webhook-signature`
 * = `v1,` + base64 HMAC-SHA256 of `id.timestamp.body`, keyed by the secret's bytes (a `whsec_`
 * secret is base64, as that standard's libraries expect).
 */
import { createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import type { TemplateSandbox } from './sandbox.js';

export interface WebhookTarget {
  payload_url: string;
  http_method: string;
  http_content_type: string;
  additional_headers: string;
  body_template: string;
  secret: string;
  ssl_verification: boolean;
  ca_file_path: string | null;
}

export interface EventContext {
  event: string;
  timestamp: string;
  model: string;
  /** `app.model`, in a 4.4 deployment's payloads (NetBox 4.4) */
  object_type?: string;
  username: string;
  request_id: string | null;
  data: unknown;
  snapshots: { prechange: unknown; postchange: unknown };
}

export interface DeliveryOutcome {
  ok: boolean;
  request: { method: string; url: string; headers: Record<string, string>; body: string } | null;
  status: number | null;
  responseBody: string | null;
  error: string | null;
}

const RESPONSE_EXCERPT = 2_000;
const REQUEST_BODY_KEPT = 10_000;

/** `Name: Value` lines; blank lines skipped; a line without a colon is an error. */
function parseHeaderLines(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    if (!line.trim()) continue;
    const colon = line.indexOf(':');
    if (colon <= 0) throw new Error(`invalid header line "${line}": expected "Name: Value"`);
    out[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return out;
}

function standardSignature(secret: string, id: string, timestamp: number, body: Buffer): string {
  const key = secret.startsWith('whsec_') ? Buffer.from(secret.slice(6), 'base64') : Buffer.from(secret, 'utf8');
  const mac = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest('base64');
  return `v1,${mac}`;
}

export async function buildRequest(
  sandbox: TemplateSandbox,
  target: WebhookTarget,
  context: EventContext,
  webhookId: string,
  now = Date.now(),
) {
  const templates: Record<string, string> = { url: target.payload_url, headers: target.additional_headers };
  if (target.body_template) templates.body = target.body_template;
  // plain text (no Jinja2 markup, `{`) is its own rendering: most webhooks are a fixed URL and the
  // default body, and need no trip to the sandbox
  const rendered = Object.values(templates).some((t) => t.includes('{'))
    ? await sandbox.render(templates, context)
    : templates;
  const body = Buffer.from(target.body_template ? rendered.body! : JSON.stringify(context), 'utf8');
  const headers: Record<string, string> = {
    'Content-Type': target.http_content_type,
    ...parseHeaderLines(rendered.headers ?? ''),
  };
  const timestamp = Math.floor(now / 1000);
  headers['webhook-id'] = webhookId;
  headers['webhook-timestamp'] = String(timestamp);
  if (target.secret) {
    headers['X-Hook-Signature'] = createHmac('sha512', Buffer.from(target.secret, 'utf8')).update(body).digest('hex');
    headers['webhook-signature'] = standardSignature(target.secret, webhookId, timestamp, body);
  }
  const url = rendered.url!.trim();
  return { method: target.http_method, url, headers, body };
}

/** Sends the request; resolves with the outcome, never rejects. */
export async function send(
  req: { method: string; url: string; headers: Record<string, string>; body: Buffer },
  target: Pick<WebhookTarget, 'ssl_verification' | 'ca_file_path'>,
  timeoutMs: number,
): Promise<Omit<DeliveryOutcome, 'request'>> {
  let url: URL;
  try {
    url = new URL(req.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new Error(`unsupported URL scheme ${url.protocol}`);
  } catch (err) {
    return {
      ok: false,
      status: null,
      responseBody: null,
      error: `invalid URL "${req.url}": ${(err as Error).message}`,
    };
  }
  const ca = target.ca_file_path ? await readFile(target.ca_file_path).catch(() => null) : undefined;
  if (ca === null)
    return { ok: false, status: null, responseBody: null, error: `cannot read the CA file ${target.ca_file_path}` };
  const lib = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const done = (v: Omit<DeliveryOutcome, 'request'>) => {
      if (!settled) {
        settled = true;
        resolve(v);
      }
    };
    const request = lib.request(
      url,
      {
        method: req.method,
        headers: { ...req.headers, 'Content-Length': String(req.body.length), 'User-Agent': 'netinventory-webhook' },
        timeout: timeoutMs,
        ...(url.protocol === 'https:' ? { rejectUnauthorized: target.ssl_verification, ...(ca ? { ca } : {}) } : {}),
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          if (size < RESPONSE_EXCERPT * 4) chunks.push(c);
          size += c.length;
        });
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8').slice(0, RESPONSE_EXCERPT);
          const ok = status >= 200 && status < 300;
          done({
            ok,
            status,
            responseBody: text,
            error: ok ? null : `the receiver answered ${status}${res.statusMessage ? ` ${res.statusMessage}` : ''}`,
          });
        });
        res.on('error', (err) =>
          done({ ok: false, status, responseBody: null, error: `reading the answer failed: ${err.message}` }),
        );
      },
    );
    const overall = setTimeout(() => {
      request.destroy(new Error(`no complete answer within ${timeoutMs} ms`));
    }, timeoutMs);
    request.on('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    request.on('error', (err: NodeJS.ErrnoException) => {
      const kind =
        err.code === 'ECONNREFUSED'
          ? 'connection refused'
          : err.code?.startsWith('ERR_TLS') || /certificate|SSL|TLS/i.test(err.message)
            ? 'TLS error'
            : 'request failed';
      done({ ok: false, status: null, responseBody: null, error: `${kind}: ${err.message}` });
    });
    request.on('close', () => clearTimeout(overall));
    request.end(req.body);
  });
}

/** A request as the delivery log keeps it (the body cut to a readable length). */
export function loggedRequest(req: { method: string; url: string; headers: Record<string, string>; body: Buffer }) {
  const headers = { ...req.headers };
  return { method: req.method, url: req.url, headers, body: req.body.toString('utf8').slice(0, REQUEST_BODY_KEPT) };
}
