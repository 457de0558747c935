import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type Koa from 'koa';
import type { Logger } from '@cms/admin-core';

/**
 * The HTTP server's timeouts (docs/host-guide.md, "Timeouts, client errors and shutdown"): a client that is slow
 * to send its request head or its body, or that keeps an idle connection open, does not hold a
 * socket for long. Node checks the first two every `connectionsCheckingInterval` ms.
 */
export interface HttpTimeouts {
  /** The request line and headers must arrive within this many ms (answered 408 otherwise). */
  headersTimeout: number;
  /** The whole request, body included (uploads up to 10 MiB at ~90 KiB/s). */
  requestTimeout: number;
  /** An idle keep-alive connection is closed after this many ms. */
  keepAliveTimeout: number;
  connectionsCheckingInterval: number;
}

export const HTTP_TIMEOUTS: HttpTimeouts = {
  headersTimeout: 10_000,
  requestTimeout: 120_000,
  keepAliveTimeout: 5_000,
  connectionsCheckingInterval: 1_000,
};

/** How long shutdown waits for the requests being answered before it closes their connections. */
const SHUTDOWN_GRACE_MS = 5_000;
/** During shutdown, a request whose body has not moved for this long is stalled: its connection goes. */
const STALLED_MS = 500;

export interface HostServer {
  server: Server;
  /**
   * Stops accepting connections and closes at once every connection that has no request being
   * answered (idle keep-alive ones, and clients still sending their request head), and soon after
   * those whose request body stopped arriving. A request being answered may finish within the
   * grace period; then its connection is closed too.
   */
  stop(): Promise<void>;
}

/** Listens on `port` and `host` with the timeouts; refuses a port in use with a message that says what to do. */
export function listen(app: Koa, port: number, host: string, timeouts: HttpTimeouts = HTTP_TIMEOUTS): Promise<HostServer> {
  const { headersTimeout, requestTimeout, keepAliveTimeout, connectionsCheckingInterval } = timeouts;
  const server = createServer({ headersTimeout, requestTimeout, keepAliveTimeout, connectionsCheckingInterval }, app.callback());
  server.keepAliveTimeout = keepAliveTimeout;
  const sockets = new Set<Socket>();
  /** Connections with a request being answered: the latest, how many (pipelining), bytes read when last looked at. */
  const answering = new Map<Socket, { req: IncomingMessage; count: number; read: number }>();
  let closing = false;
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('request', (req, res) => {
    const socket = req.socket;
    const state = answering.get(socket);
    answering.set(socket, { req, count: (state?.count ?? 0) + 1, read: -1 });
    res.once('close', () => {
      const left = answering.get(socket);
      if (left && left.count > 1) return void (left.count -= 1);
      answering.delete(socket);
      if (closing) socket.end(); // answered: the connection goes with the server
    });
  });

  const stop = () =>
    new Promise<void>((resolve) => {
      closing = true;
      const grace = setTimeout(() => {
        for (const socket of sockets) socket.destroy();
      }, SHUTDOWN_GRACE_MS);
      const stalled = () => {
        for (const [socket, state] of answering) {
          if (!state.req.complete && socket.bytesRead === state.read) socket.destroy();
          state.read = socket.bytesRead;
        }
      };
      const watch = setInterval(stalled, STALLED_MS);
      server.close(() => {
        clearTimeout(grace);
        clearInterval(watch);
        resolve();
      });
      for (const socket of sockets) if (!answering.has(socket)) socket.destroy();
      stalled();
    });

  return new Promise((resolve, reject) => {
    server.listen(port, host);
    server.once('listening', () => resolve({ server, stop }));
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') reject(new Error(`Port ${port} on ${host} is in use. Set PORT to another port.`));
      else reject(error);
    });
  });
}

/** Errors of a connection the client cut or garbled: its doing, not the app's. */
const CONNECTION_ERROR = /^(ECONNRESET|ECONNABORTED|EPIPE|ERR_STREAM_PREMATURE_CLOSE|HPE_)/;

/**
 * Koa's `error` event as one structured log line (Koa's own handler prints a multi-line stack for
 * each): a client error (a 4xx, or a connection the client cut or garbled, such as a body cut
 * short) is a `warn` with its code and message; anything else is an `error` that keeps the stack
 * in a field.
 */
export function logAppErrors(app: Koa, logger: Logger): void {
  app.on('error', (error: unknown, ctx?: Koa.Context) => {
    const { status, code, message, stack } = (error ?? {}) as { status?: unknown; code?: unknown; message?: unknown; stack?: unknown };
    const fields = {
      method: ctx?.method,
      path: ctx?.path,
      // Koa's status is its default 404 until an answer is sent: only a sent one is reported.
      status: typeof status === 'number' ? status : ctx?.headerSent ? ctx.status : undefined,
      code: typeof code === 'string' ? code : undefined,
      ip: ctx?.ip,
    };
    const client = (typeof status === 'number' && status >= 400 && status < 500) || CONNECTION_ERROR.test(fields.code ?? '');
    const text = typeof message === 'string' ? message : String(error);
    if (client) logger.warn('client error', { ...fields, error: text.split('\n', 1)[0] });
    else logger.error('host error', { ...fields, error: typeof stack === 'string' ? stack : text });
  });
}
