import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
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

/**
 * On close, how long a connection that has not yet carried a request may stay open: a client that
 * connected just before the stop has its request read and answered, while one that connected and
 * sent nothing does not hold the stop for the whole grace period.
 */
const UNUSED_CONNECTION_GRACE_MS = 1000;

/**
 * On close, the longest the listener stays open to take in the connections the kernel has already
 * completed. A busy process accepts one connection per turn of its event loop, and closing the
 * listening socket would reset those still queued: requests their clients have sent.
 */
const ACCEPT_QUEUED_MAX_MS = 2000;

/**
 * Which connections are idle when the server closes. Node's own `closeIdleConnections` counts a
 * connection whose request has arrived but not yet been read (the event loop busy with others) as
 * idle, and cuts it; here a connection is idle only once it has been answered and carries no other
 * request, or when it has stayed unused for UNUSED_CONNECTION_GRACE_MS.
 */
function trackConnections(server: Server): { closeIdle: () => void; accepted: () => number } {
  let accepted = 0;
  let closing = false;
  const openedAt = new Map<Socket, number>();
  const answered = new WeakSet<Socket>();
  const busy = new WeakSet<Socket>();
  server.on('connection', (socket: Socket) => {
    accepted += 1;
    openedAt.set(socket, Date.now());
    socket.once('close', () => openedAt.delete(socket));
  });
  server.prependListener('request', (req, res) => {
    const { socket } = req;
    busy.add(socket);
    // A closing server answers each request with `Connection: close`: the client's next request
    // opens a connection elsewhere rather than racing this one's end.
    if (closing) res.setHeader('Connection', 'close');
    res.once('finish', () => {
      busy.delete(socket);
      answered.add(socket);
    });
  });
  return {
    accepted: () => accepted,
    closeIdle: () => {
      closing = true;
      const unusedSince = Date.now() - UNUSED_CONNECTION_GRACE_MS;
      for (const [socket, opened] of openedAt) {
        if (busy.has(socket)) continue;
        if (answered.has(socket) || opened <= unusedSince) socket.destroy();
      }
    },
  };
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Resolves once a turn of the event loop has accepted no connection, so the kernel's queue is
 * empty, or after `maxMs`. Each turn polls the listening socket once.
 */
async function acceptQueued(accepted: () => number, maxMs: number): Promise<void> {
  const until = Date.now() + maxMs;
  // The first turn may have polled before this began; a quiet one is a whole turn later.
  await nextTurn();
  for (let before = accepted(); Date.now() < until; before = accepted()) {
    await nextTurn();
    if (accepted() === before) return;
  }
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
  const connections = trackConnections(server);
  // `server.close()` calls this too, so the connections are judged the same way from the start.
  server.closeIdleConnections = connections.closeIdle;
  await once(server, 'listening');
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    server,
    url: `http://${shownHost}:${address.port}`,
    // Takes in the connections already queued, then stops accepting; in-flight requests finish, each
    // answered with `Connection: close`, and each keep-alive connection is closed as soon as it is
    // idle. Connections still busy after the grace period are cut.
    close: async () => {
      const idleSweep = setInterval(() => server.closeIdleConnections(), 50);
      const deadline = setTimeout(() => server.closeAllConnections(), shutdownGraceMs);
      idleSweep.unref();
      deadline.unref();
      server.closeIdleConnections();
      try {
        await acceptQueued(connections.accepted, Math.min(ACCEPT_QUEUED_MAX_MS, shutdownGraceMs));
        await new Promise<void>((resolve, reject) => {
          server.close((error) => (error ? reject(error) : resolve()));
        });
      } finally {
        clearInterval(idleSweep);
        clearTimeout(deadline);
      }
    },
  };
}
