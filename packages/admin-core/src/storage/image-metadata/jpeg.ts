import { keptExif } from './exif.ts';
import { Kept, type ImageWalk } from './types.ts';

const EXIF_ID = Buffer.from('Exif\0\0', 'latin1');
const JFIF_ID = Buffer.from('JFIF\0', 'latin1');
const ICC_ID = Buffer.from('ICC_PROFILE\0', 'latin1');
const ADOBE_ID = Buffer.from('Adobe', 'latin1');
/** The payload of an Adobe APP14 segment: `Adobe`, version, flags0, flags1, colour transform. */
const ADOBE_LENGTH = 12;

/**
 * A JPEG may hold at most this many scans (docs/files.md, "Uploads"). Each scan is one more pass
 * of the decoder over every block of its components, and an empty scan costs a few bytes: a
 * 147 KB file of 882 empty AC scans over a 39.9 MP frame took 14 s to decode (issue 38). libjpeg's
 * progressive mode writes 10 scans for a colour photo (6 for grey, 18 for CMYK), mozjpeg fewer
 * than 20 per component (under 60 for a colour photo), a baseline JPEG one per component at most;
 * 64 leaves room over all of them and bounds the decode to 64 passes.
 */
export const MAX_JPEG_SCANS = 64;

/** Frame headers (SOF0-SOF15 but DHT, JPG and DAC): they carry the dimensions. */
const isFrameHeader = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
/** Segments the decoder needs: frame and scan headers (a scan with its data), tables, restart interval, hierarchical markers. */
const isCodingSegment = (marker: number) => (marker >= 0xc0 && marker <= 0xcf) || (marker >= 0xda && marker <= 0xdf);

const segment = (marker: number, body: Buffer) => {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([head, body]);
};

/** After a scan header, the entropy-coded data runs to the next marker that is not a stuffed byte or a restart. */
function scanEnd(data: Buffer, from: number): number | undefined {
  let at = from;
  for (;;) {
    const ff = data.indexOf(0xff, at);
    if (ff < 0 || ff + 1 >= data.length) return undefined;
    const next = data[ff + 1]!;
    if (next === 0x00 || (next >= 0xd0 && next <= 0xd7)) at = ff + 2;
    else return ff;
  }
}

/**
 * A JPEG's segments from SOI to EOI (docs/files.md, "Metadata"): the coding segments, the
 * colour profile (APP2 ICC_PROFILE) is kept as it is, Adobe's colour transform (APP14) as its 12
 * bytes and the JFIF header as its 14 bytes without thumbnail; EXIF becomes the orientation alone; XMP, IPTC, comments,
 * other APP segments and anything after EOI go. Undefined for anything that is not a whole JPEG,
 * and for one of more than `MAX_JPEG_SCANS` scans.
 */
export function walkJpeg(data: Buffer): ImageWalk | undefined {
  if (data.length < 4 || data[0] !== 0xff || data[1] !== 0xd8) return undefined;
  const kept = new Kept(data);
  kept.range(0, 2);
  let width = 0;
  let height = 0;
  let scans = 0;
  let exifSeen = false;
  let at = 2;
  for (;;) {
    const start = at;
    if (data[at] !== 0xff) return undefined;
    while (at < data.length && data[at] === 0xff) at += 1;
    if (at >= data.length) return undefined;
    const marker = data[at]!;
    at += 1;
    if (marker === 0xd9) {
      kept.range(start, at);
      break;
    }
    // A restart, SOI, TEM or stuffed byte outside a scan is no segment.
    if (marker === 0x00 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) return undefined;
    if (at + 2 > data.length) return undefined;
    const length = data.readUInt16BE(at);
    if (length < 2 || at + length > data.length) return undefined;
    const body = data.subarray(at + 2, at + length);
    let end = at + length;
    if (marker === 0xda) {
      if (width === 0) return undefined;
      const stop = scanEnd(data, end);
      if (stop === undefined) return undefined;
      end = stop;
      scans += 1;
      // Refused before the rest is walked and before anything is decoded.
      if (scans > MAX_JPEG_SCANS) return undefined;
    }
    at = end;
    if (isFrameHeader(marker)) {
      if (body.length < 6) return undefined;
      if (width === 0) {
        height = body.readUInt16BE(1);
        width = body.readUInt16BE(3);
        if (width === 0 || height === 0) return undefined;
      }
      kept.range(start, end);
    } else if (isCodingSegment(marker)) kept.range(start, end);
    else if (marker === 0xe0 && body.subarray(0, 5).equals(JFIF_ID) && body.length >= 14) {
      // The JFIF header stays as its 14 bytes and no thumbnail: an embedded thumbnail (a copy of
      // the photo) or any byte after the header does not.
      if (body.length === 14 && body[12] === 0 && body[13] === 0) kept.range(start, end);
      else kept.bytes(segment(0xe0, Buffer.concat([body.subarray(0, 12), Buffer.from([0, 0])])));
    } else if (marker === 0xe1 && body.subarray(0, 6).equals(EXIF_ID)) {
      const exif = exifSeen ? undefined : keptExif(body.subarray(6));
      exifSeen = true;
      if (exif) kept.bytes(segment(0xe1, Buffer.concat([EXIF_ID, exif])));
    } else if (marker === 0xe2 && body.subarray(0, 12).equals(ICC_ID)) kept.range(start, end);
    else if (marker === 0xee && body.subarray(0, 5).equals(ADOBE_ID) && body.length >= ADOBE_LENGTH) {
      // Adobe's colour transform is its 12 bytes (`Adobe`, version, two flag words, transform); more bytes go.
      if (body.length === ADOBE_LENGTH) kept.range(start, end);
      else kept.bytes(segment(0xee, body.subarray(0, ADOBE_LENGTH)));
    }
    // Everything else is metadata: XMP and other APP1, IPTC (APP13), comments, other APPn, reserved markers.
  }
  if (width === 0 || scans === 0) return undefined;
  return { width, height, frames: 1, framePixels: width * height, stripped: kept.result() };
}
