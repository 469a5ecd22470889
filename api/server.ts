import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { SERVER_TIMEOUTS } from '../src/config.js';

export interface RunningServer {
  server: Server;
  url: string;
  close(): Promise<void>;
}

export interface ListenOptions {
  /** Longest time to receive a whole request, body included. */
  requestTimeoutMs?: number;
  /** Longest time to receive the request headers. */
  headersTimeoutMs?: number;
  /** On close, how long in-flight requests may run before their connections are cut. */
  shutdownGraceMs?: number;
}

/** Listens on host:port (0 picks a free port) and resolves once the socket is bound. */
export async function listen(
  app: Express,
  host: string,
  port: number,
  options: ListenOptions = {},
): Promise<RunningServer> {
  const server = app.listen(port, host);
  server.requestTimeout = options.requestTimeoutMs ?? SERVER_TIMEOUTS.requestMs;
  server.headersTimeout = options.headersTimeoutMs ?? SERVER_TIMEOUTS.headersMs;
  const shutdownGraceMs = options.shutdownGraceMs ?? SERVER_TIMEOUTS.shutdownGraceMs;
  await once(server, 'listening');
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    server,
    url: `http://${shownHost}:${address.port}`,
    // Stops accepting at once; in-flight requests finish, and each keep-alive connection is closed as
    // soon as it is idle. Connections still busy after the grace period are cut.
    close: () =>
      new Promise<void>((resolve, reject) => {
        const idleSweep = setInterval(() => server.closeIdleConnections(), 50);
        const deadline = setTimeout(() => server.closeAllConnections(), shutdownGraceMs);
        idleSweep.unref();
        deadline.unref();
        server.close((error) => {
          clearInterval(idleSweep);
          clearTimeout(deadline);
          if (error) reject(error);
          else resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
