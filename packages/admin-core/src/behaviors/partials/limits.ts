/**
 * Limits of a rendered partial (64 KiB of output, 2000 nodes, depth 32; docs/partials.md, "Limits
 * and errors"), and the engine's own bounds on the work of one render.
 */
export const PARTIAL_LIMITS = Object.freeze({
  /** The template's output, in UTF-8 bytes, before it is parsed into nodes. */
  outputBytes: 64 * 1024,
  /** Nodes of the served tree: every element and every text node. */
  nodes: 2000,
  /** Depth of the served tree: the top-level nodes are at depth 1. */
  depth: 32,
  /** Wall-clock time of one render (Liquid's `renderLimit`). */
  renderMilliseconds: 1000,
  /** Liquid's `memoryLimit`: characters and array items its filters and ranges may allocate. */
  memoryUnits: 4_000_000,
});

/**
 * A partial over a limit. Not an AdminError: it is the partial's fault, not the caller's, so the
 * answer is an opaque 500 (as for a widget result over its limit) and the log names the reason.
 */
export class PartialLimitError extends Error {
  constructor(reason: string) {
    super(`partial refused: ${reason}`);
    this.name = 'PartialLimitError';
  }
}
