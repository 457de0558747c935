/** The part of `s3rver` (a fake S3 server for tests, no types of its own) the storage tests use. */
declare module 's3rver' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory?: string;
    resetOnClose?: boolean;
    allowMismatchedSignatures?: boolean;
    vhostBuckets?: boolean;
  }

  export default class S3rver {
    constructor(options?: S3rverOptions);
    /** The request handler, to mount in a server of one's own. */
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    logger: { close(): void };
  }
}
