import { once } from 'node:events';
import net, { type AddressInfo } from 'node:net';

export interface TcpProxy {
  /** Where clients connect instead of the target (127.0.0.1). */
  readonly host: string;
  readonly port: number;
  /** Connections accepted and forwarded so far. */
  readonly forwarded: number;
  /** Connections refused (reset) while stopped. */
  readonly refused: number;
  /** Forwards new connections to the target again, as a server that came back. */
  start(): void;
  /**
   * As a server that went down: every forwarded connection is cut and each new one is reset as soon
   * as it is accepted, until `start()`.
   */
  stop(): void;
  /** Cuts every connection and stops listening. */
  close(): Promise<void>;
}

/**
 * A TCP proxy on a free port of 127.0.0.1 in front of `target` (PostgreSQL, Redis, the app), to
 * take the target away and bring it back while its clients keep running. Starts forwarding unless
 * `running` is false.
 */
export async function startTcpProxy(
  target: { host: string; port: number },
  { running = true }: { running?: boolean } = {},
): Promise<TcpProxy> {
  let forwarding = running;
  let forwarded = 0;
  let refused = 0;
  const open = new Set<net.Socket>();

  const server = net.createServer((client) => {
    if (!forwarding) {
      refused += 1;
      // A reset rather than an orderly close: what a client sees from a host whose server is gone.
      client.resetAndDestroy();
      return;
    }
    forwarded += 1;
    const upstream = net.connect(target);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.once('close', () => open.delete(socket));
    }
    // One side failing or closing takes the other down with it, as a broken connection would.
    const cut = (): void => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', cut);
    upstream.on('error', cut);
    client.pipe(upstream).pipe(client);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { address, port } = server.address() as AddressInfo;

  const cutAll = (): void => {
    for (const socket of open) socket.destroy();
  };

  return {
    host: address,
    port,
    get forwarded() {
      return forwarded;
    },
    get refused() {
      return refused;
    },
    start() {
      forwarding = true;
    },
    stop() {
      forwarding = false;
      cutAll();
    },
    close() {
      forwarding = false;
      cutAll();
      return new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

/** `url` with its host and port replaced by the proxy's: the same service, reached through the proxy. */
export function urlThrough(proxy: TcpProxy, url: string): string {
  const proxied = new URL(url);
  proxied.hostname = proxy.host;
  proxied.port = String(proxy.port);
  return proxied.toString();
}

/** The host and port a URL points at, for `startTcpProxy`. */
export function targetOf(url: string, defaultPort: number): { host: string; port: number } {
  const { hostname, port } = new URL(url);
  return { host: hostname, port: port === '' ? defaultPort : Number(port) };
}
