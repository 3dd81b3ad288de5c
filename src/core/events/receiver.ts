/**
 * `inventory webhook-receiver [--port 9000] [--no-headers]` (spec: Delivery 4; NetBox's
 * `manage.py webhook_receiver`): a listener for diagnosing webhooks that prints each request's
 * headers and body, answers `200 Webhook received!`, and does nothing else.
 */
import http from 'node:http';

export function startWebhookReceiver(opts: {
  host: string;
  port: number;
  headers: boolean;
  print: (line: string) => void;
}): Promise<http.Server> {
  let counter = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      counter += 1;
      const body = Buffer.concat(chunks).toString('utf8');
      const lines = [`[${counter}] ${req.method} ${req.url}`];
      if (opts.headers)
        for (const [k, v] of Object.entries(req.headers)) lines.push(`${k}: ${Array.isArray(v) ? v.join(', ') : v}`);
      let shown = body;
      if (/json/i.test(String(req.headers['content-type'] ?? ''))) {
        try {
          shown = JSON.stringify(JSON.parse(body), null, 2);
        } catch {
          // not JSON after all: shown as sent
        }
      }
      lines.push('', shown || '(no body)', '-'.repeat(60));
      opts.print(lines.join('\n'));
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('Webhook received!\n');
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve(server));
  });
}
