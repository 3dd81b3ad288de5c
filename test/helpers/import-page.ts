/**
 * The import page (web/model-pages/import.page.ts) as a browser posts it, for the tests under
 * test/web/: the form with the page's CSRF token (urlencoded, or multipart with a file), and the
 * preview table read back as text.
 */
import type { TestApp } from './app.js';
import type { WebSession } from './web-session.js';

function tokenOf(page: string): string {
  const m = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(page);
  if (!m) throw new Error('no CSRF field on the page');
  return m[1]!;
}

/** posts the import form of `list` as a browser does, with the page's CSRF token */
export async function postImport(t: TestApp, b: WebSession, list: string, fields: Record<string, string>) {
  const page = await b.request('GET', `${list}import/`);
  const body = new URLSearchParams({ csrfmiddlewaretoken: tokenOf(page.body), format: 'auto', ...fields });
  return t.app.inject({
    method: 'POST',
    url: `${list}import/`,
    headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded', cookie: b.cookieHeader() },
    payload: body.toString(),
  });
}

/** posts the import form of `list` as multipart/form-data, `file` as its upload_file */
export async function postImportFile(
  t: TestApp,
  b: WebSession,
  list: string,
  file: string,
  fields: Record<string, string>,
) {
  const page = await b.request('GET', `${list}import/`);
  const boundary = 'import-boundary-42';
  const part = (name: string, value: string, filename?: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"\r\nContent-Type: text/csv` : ''}\r\n\r\n${value}\r\n`;
  const all = { csrfmiddlewaretoken: tokenOf(page.body), data: '', format: 'auto', ...fields };
  const payload = `${Object.entries(all)
    .map(([k, v]) => part(k, v))
    .join('')}${part('upload_file', file, 'data.csv')}--${boundary}--\r\n`;
  return t.app.inject({
    method: 'POST',
    url: `${list}import/`,
    headers: {
      accept: 'text/html',
      'content-type': `multipart/form-data; boundary=${boundary}`,
      cookie: b.cookieHeader(),
    },
    payload,
  });
}

/** the preview table's rows as [row or line, outcome text, errors text] */
export function previewRows(page: string): string[][] {
  const start = page.indexOf('id="import-preview"');
  const table = page.slice(start, page.indexOf('</table>', start));
  return [...table.matchAll(/<tr><td>(\d+)<\/td><td>(.*?)<\/td><td>(.*?)<\/td><\/tr>/gs)].map((m) =>
    m.slice(1).map((x) =>
      x
        .replace(/<[^>]+>/g, '')
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&amp;/g, '&')
        .trim(),
    ),
  );
}
