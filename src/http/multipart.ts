/**
 * A `multipart/form-data` body (RFC 7578), already read into memory and bounded in size, split into
 * its text fields and its files. What pynetbox (requests), curl `-F`, Ansible's uri module and
 * browsers send: CRLF line ends, `Content-Disposition: form-data; name="..."[; filename="..."]`,
 * quoted names with `\"` escapes (curl) or `%22` ones (HTML5, urllib3 2), or RFC 5987
 * `filename*=UTF-8''...`. A part with a filename is a file, others are text (UTF-8).
 */
import type { UploadedFile } from '../core/media/uploaded-file.js';

export interface MultipartBody {
  /** text fields; a repeated name keeps its last value (Django's QueryDict.__getitem__) */
  fields: Record<string, string>;
  /** files by field name */
  files: Map<string, UploadedFile>;
}

export class MultipartError extends Error {}

const MAX_PARTS = 1000;
const MAX_HEADER_BYTES = 16 * 1024;
const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');

/** The boundary named by a Content-Type header, or null. */
export function boundaryOf(contentType: string): string | null {
  const m = /;\s*boundary=(?:"([^"]{1,70})"|([^;\s]{1,70}))/i.exec(contentType);
  return m ? (m[1] ?? m[2]!) : null;
}

/** a quoted-string's content: backslash escapes (RFC 2616, curl) and HTML5's %22 %0D %0A */
function unquote(raw: string): string {
  return raw.replace(/\\(.)/g, '$1').replace(/%22/g, '"').replace(/%0D/gi, '\r').replace(/%0A/gi, '\n');
}

/** `form-data; name="a"; filename="b.png"` -> { name: 'a', filename: 'b.png' } (names lower-cased) */
export function dispositionParams(value: string): Record<string, string> {
  const out: Record<string, string> = {};
  const re = /;\s*([A-Za-z0-9_*-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g;
  for (let m = re.exec(value); m; m = re.exec(value)) {
    const key = m[1]!.toLowerCase();
    const v = m[2] !== undefined ? unquote(m[2]) : m[3]!.trim();
    if (key.endsWith('*')) {
      // RFC 5987: charset'language'percent-encoded
      const ext = /^([\w-]*)'[^']*'(.*)$/.exec(v);
      if (!ext) continue;
      try {
        out[key.slice(0, -1)] = decodeURIComponent(ext[2]!);
      } catch {
        throw new MultipartError(`Invalid ${key.slice(0, -1)} encoding in a part's Content-Disposition.`);
      }
    } else if (!(key in out)) out[key] = v;
  }
  return out;
}

function parseHeaders(raw: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of raw.split('\r\n')) {
    const i = line.indexOf(':');
    if (i <= 0) throw new MultipartError('Malformed part header.');
    headers.set(line.slice(0, i).trim().toLowerCase(), line.slice(i + 1).trim());
  }
  return headers;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function text(bytes: Buffer, what: string): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new MultipartError(`Invalid UTF-8 in ${what}.`);
  }
}

/** Splits a whole multipart body; throws MultipartError for one that is not well formed. */
export function parseMultipart(body: Buffer, contentType: string): MultipartBody {
  const boundary = boundaryOf(contentType);
  if (!boundary) throw new MultipartError('Multipart form parse error - Invalid boundary in multipart: None');
  const dash = Buffer.from(`--${boundary}`);
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  // the first delimiter may open the body or follow a preamble
  let at: number;
  if (body.subarray(0, dash.length).equals(dash)) at = dash.length;
  else {
    const first = body.indexOf(delimiter);
    if (first < 0) throw new MultipartError('Multipart form parse error - no boundary found in the body.');
    at = first + delimiter.length;
  }
  const out: MultipartBody = { fields: {}, files: new Map() };
  for (let parts = 0; ; parts++) {
    // after a delimiter: `--` closes the body, else transport padding and CRLF open a part
    if (body[at] === 0x2d && body[at + 1] === 0x2d) return out;
    while (body[at] === 0x20 || body[at] === 0x09) at++;
    if (!body.subarray(at, at + 2).equals(CRLF))
      throw new MultipartError('Multipart form parse error - malformed delimiter.');
    at += 2;
    if (parts >= MAX_PARTS) throw new MultipartError('Too many parts in the multipart body.');
    const headerEnd = body.indexOf(HEADER_END, at);
    if (headerEnd < 0 || headerEnd - at > MAX_HEADER_BYTES)
      throw new MultipartError('Multipart form parse error - a part has no end of headers.');
    const headers = parseHeaders(text(body.subarray(at, headerEnd), 'a part header'));
    const contentStart = headerEnd + HEADER_END.length;
    const contentEnd = body.indexOf(delimiter, contentStart);
    if (contentEnd < 0) throw new MultipartError('Multipart form parse error - the body ends inside a part.');
    addPart(out, headers, body.subarray(contentStart, contentEnd));
    at = contentEnd + delimiter.length;
  }
}

function addPart(out: MultipartBody, headers: Map<string, string>, content: Buffer): void {
  const disposition = headers.get('content-disposition');
  if (!disposition || !/^form-data\s*(;|$)/i.test(disposition)) throw new MultipartError('A part is not form-data.');
  const params = dispositionParams(disposition);
  const name = params.name;
  if (name === undefined) throw new MultipartError('A part has no name.');
  if (params.filename === undefined) {
    out.fields[name] = text(content, `field "${name}"`);
    return;
  }
  // a file input left empty: browsers send an empty filename and no bytes (Django skips it)
  if (params.filename === '' && content.length === 0) return;
  out.files.set(name, {
    field: name,
    filename: params.filename,
    contentType: headers.get('content-type') ?? null,
    data: Buffer.from(content),
  });
}
