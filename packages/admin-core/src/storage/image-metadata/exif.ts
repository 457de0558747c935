/**
 * The one EXIF tag an image keeps when its metadata is removed: the orientation, without which a
 * phone photo would be shown on its side (docs/files.md, "Metadata"). Everything else of an EXIF
 * block (camera, names, GPS, dates, thumbnails) goes.
 */

const ORIENTATION_TAG = 0x0112;

/** The orientation (1 to 8) of a TIFF structure (the body of an EXIF block), or undefined. */
function orientationOf(tiff: Buffer): number | undefined {
  if (tiff.length < 8) return undefined;
  const order = tiff.toString('latin1', 0, 2);
  if (order !== 'II' && order !== 'MM') return undefined;
  const little = order === 'II';
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  if (u16(2) !== 42) return undefined;
  const ifd = u32(4);
  if (ifd < 8 || ifd + 2 > tiff.length) return undefined;
  const count = u16(ifd);
  for (let i = 0; i < count; i += 1) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > tiff.length) return undefined;
    // SHORT (3), one value: it sits in the first two bytes of the value field.
    if (u16(entry) === ORIENTATION_TAG && u16(entry + 2) === 3 && u32(entry + 4) === 1) {
      const value = u16(entry + 8);
      return value >= 1 && value <= 8 ? value : undefined;
    }
  }
  return undefined;
}

/** A TIFF structure holding only the orientation: big-endian, one IFD with one entry. */
function orientationOnly(orientation: number): Buffer {
  const tiff = Buffer.alloc(26);
  tiff.write('MM', 0, 'latin1');
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(8, 4);
  tiff.writeUInt16BE(1, 8);
  tiff.writeUInt16BE(ORIENTATION_TAG, 10);
  tiff.writeUInt16BE(3, 12);
  tiff.writeUInt32BE(1, 14);
  tiff.writeUInt16BE(orientation, 18);
  // Bytes 20-21 pad the value, 22-25 say there is no next IFD.
  return tiff;
}

/** The EXIF block to keep for `tiff`: the orientation alone when it turns the image, else nothing. */
export function keptExif(tiff: Buffer): Buffer | undefined {
  const orientation = orientationOf(tiff);
  return orientation !== undefined && orientation !== 1 ? orientationOnly(orientation) : undefined;
}
