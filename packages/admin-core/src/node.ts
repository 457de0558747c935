/**
 * `@cms/admin-core/node`: the admin on a plain `node:http` server, with no framework
 * (docs/host-guide.md, "Writing another adapter"). It only translates: every rule is the core's.
 *
 * ```ts
 * const core = await AdminCore.create(config); // from '@cms/admin-core/adapter'
 * http.createServer(nodeListener(core, hostListener)).listen(3000);
 * ```
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AdminCore } from './core.ts';

export type NodeListener = (req: IncomingMessage, res: ServerResponse) => void;

/** Statuses that never carry a body. */
const EMPTY = new Set([204, 205, 304]);

/**
 * A request listener that answers the admin's requests and hands every other one to `next`
 * (default: an empty 404). The client address is the socket's: put a proxy's address rules in
 * front of it if there is one. Only origin-form targets (`/path?query`) are the admin's.
 */
export function nodeListener(core: Pick<AdminCore, 'handle' | 'config'>, next?: NodeListener): NodeListener {
  return (req, res) => {
    const target = req.url ?? '/';
    const index = target.indexOf('?');
    core
      .handle({
        method: req.method ?? 'GET',
        path: index < 0 ? target : target.slice(0, index),
        query: index < 0 ? '' : target.slice(index + 1),
        headers: req.headers,
        ip: req.socket.remoteAddress ?? '',
        body: req,
      })
      .then((answer) => {
        if (!answer) {
          if (next) return next(req, res);
          res.statusCode = 404;
          return res.end();
        }
        res.statusCode = answer.status;
        for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
        if (answer.cookies.length) res.setHeader('Set-Cookie', answer.cookies);
        const body = EMPTY.has(answer.status) ? undefined : answer.body;
        if (body !== undefined) res.setHeader('Content-Length', Buffer.byteLength(body));
        res.end(req.method === 'HEAD' ? undefined : body);
      })
      .catch((error: unknown) => {
        // core.handle answers its own failures; this only guards the socket (headers half sent).
        core.config.logger.error('node adapter failure', { error: String(error) });
        if (!res.headersSent) res.statusCode = 500;
        res.end();
      });
  };
}
