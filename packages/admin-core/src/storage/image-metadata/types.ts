/** What a walk over an image's header and blocks finds, without decoding a pixel (docs/files.md, "Uploads"). */
export interface ImageWalk {
  width: number;
  height: number;
  /** 1 for a still image; the frames an animation declares and holds. */
  frames: number;
  /** The largest frame's pixels (a GIF frame may be larger than its canvas). */
  framePixels: number;
  /** The bytes without metadata; the very input when there was nothing to remove. */
  stripped: Buffer;
}

/** The input itself when the filtered bytes are the same: a file without metadata is kept byte for byte. */
export const sameOr = (data: Buffer, pieces: Buffer[]): Buffer => {
  const out = Buffer.concat(pieces);
  return out.equals(data) ? data : out;
};

/**
 * The bytes a walk keeps: runs of the input that follow each other are kept as one piece, so a
 * file of 450,000 blocks is not copied block by block.
 */
export class Kept {
  readonly #data: Buffer;
  readonly #pieces: Buffer[] = [];
  #start = 0;
  #end = 0;

  constructor(data: Buffer) {
    this.#data = data;
  }

  /** Keeps `data[start, end)` as it is. */
  range(start: number, end: number): void {
    if (start === this.#end && this.#end > this.#start) this.#end = end;
    else {
      this.#flush();
      this.#start = start;
      this.#end = end;
    }
  }

  /** Keeps new bytes (a rewritten block). */
  bytes(piece: Buffer): void {
    this.#flush();
    this.#pieces.push(piece);
  }

  /** The kept pieces, in order. */
  pieces(): Buffer[] {
    this.#flush();
    return this.#pieces;
  }

  /** The kept bytes; the input itself when they are all of it. */
  result(): Buffer {
    return sameOr(this.#data, this.pieces());
  }

  #flush(): void {
    if (this.#end > this.#start) this.#pieces.push(this.#data.subarray(this.#start, this.#end));
    this.#start = this.#end = 0;
  }
}
