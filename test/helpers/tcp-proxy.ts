/**
 * A TCP proxy on loopback that a test can cut: the service is pointed at it instead of at
 * PostgreSQL, and `cut()` makes the database unreachable as a failed network or a stopped server
 * would (open connections reset, new ones refused), without touching the shared server.
 * `restore()` listens again on the same port. `tap` sees what each connection's client sends, as
 * it passes (a reader per connection, so it can keep a parse state).
 */
import { createServer, type Server, type Socket, connect } from 'node:net';

export interface TcpProxy {
  port: number;
  /** connections accepted so far */
  readonly accepted: number;
  /** connections open now */
  readonly open: number;
  cut(): Promise<void>;
  /** refuses new connections and keeps the open ones, as a server that stays up but is left would */
  refuseNew(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(
  target: { host: string; port: number },
  tap?: () => (chunk: Buffer) => void,
): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const clients = new Set<Socket>();
  let accepted = 0;
  const track = (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  };
  const make = (): Server =>
    createServer((client) => {
      accepted++;
      clients.add(client);
      client.once('close', () => clients.delete(client));
      const upstream = connect(target.port, target.host);
      track(client);
      track(upstream);
      if (tap) client.on('data', tap());
      client.pipe(upstream);
      upstream.pipe(client);
      // either side going away takes the other with it, as a broken path would
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
  const listen = (server: Server, port: number) =>
    new Promise<number>((ok, fail) => {
      server.once('error', fail);
      server.listen(port, '127.0.0.1', () => ok((server.address() as { port: number }).port));
    });
  let server: Server | null = make();
  const port = await listen(server, 0);
  const stop = async () => {
    const s = server;
    server = null;
    for (const sock of sockets) sock.resetAndDestroy();
    if (s) await new Promise<void>((ok) => s.close(() => ok()));
  };
  return {
    port,
    get accepted() {
      return accepted;
    },
    get open() {
      return clients.size;
    },
    cut: stop,
    async refuseNew() {
      // the listening socket closes now; close()'s callback would wait for the open connections
      server?.close();
      server = null;
    },
    async restore() {
      if (server) return;
      server = make();
      await listen(server, port);
    },
    close: stop,
  };
}
