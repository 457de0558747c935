import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { definePluginFieldType, FieldError, imageWork, isAdminError } from '@cms/admin-core';

/*
 * The catalog's `color` field type: a colour as `#rrggbb`, edited with the `acme-color-picker`
 * custom element (./color-picker.js). `#abc` and upper-case spellings are accepted and stored in
 * the one canonical form, with a notice; anything else is a 422 `color.invalid`. An uploaded
 * image answers its average colour, which the picker offers to fill in.
 */

const LONG = /^#[0-9a-f]{6}$/;
const SHORT = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/;
/** The picker shows at most this many palette swatches. */
const MAX_PALETTE = 32;
/** Larger images are refused before they are decoded (a small file can hold a huge picture). */
const MAX_PIXELS = 4096 * 4096;
const IMAGE_FORMATS = new Set(['png', 'jpeg', 'gif', 'webp']);

const invalid = () => new FieldError('color.invalid', 'acme.catalog::color.invalid');
const hex = (n: number) => Math.round(n).toString(16).padStart(2, '0');

/** `#AbC` → `#aabbcc`, `#A0B0C0` → `#a0b0c0`; anything else is undefined. */
export function normaliseColor(value: string): string | undefined {
  const lower = value.toLowerCase();
  if (LONG.test(lower)) return lower;
  const short = SHORT.exec(lower);
  return short ? `#${short[1]!.repeat(2)}${short[2]!.repeat(2)}${short[3]!.repeat(2)}` : undefined;
}

/** The mean of every pixel, transparent parts shown on white, as `#rrggbb`. */
async function averageColor(data: Buffer): Promise<string> {
  const image = sharp(data, { limitInputPixels: MAX_PIXELS, failOn: 'warning' });
  const { format } = await image.metadata();
  if (!format || !IMAGE_FORMATS.has(format)) throw new FieldError('color.not_image', 'acme.catalog::color.not_image');
  // Scaling down averages neighbouring pixels: the mean of the small image is the mean of the large one.
  const { data: pixels, info } = await image
    .flatten({ background: '#ffffff' })
    .resize(256, 256, { fit: 'inside', withoutEnlargement: true })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const sums = [0, 0, 0];
  for (let i = 0; i < pixels.length; i += info.channels) for (let c = 0; c < 3; c++) sums[c]! += pixels[i + (info.channels >= 3 ? c : 0)]!;
  const count = pixels.length / info.channels;
  return `#${sums.map((sum) => hex(sum / count)).join('')}`;
}

export const colorType = definePluginFieldType({
  element: 'acme-color-picker',
  assets: { scripts: ['color-picker.js'], styles: ['color-picker.css'] },
  columnTypes: ['varchar', 'text'],
  // What a record serves (docs/openapi.md, "Plugin field types"): `#rrggbb`, or null. A save writes
  // lower case; a row written outside the admin is served as stored, so the schema takes both cases.
  valueSchema: { type: 'string', pattern: '^#[0-9a-fA-F]{6}$', nullable: true },
  errorCodes: ['color.invalid', 'color.not_image'],
  options: {
    palette: {
      check: (value) =>
        (Array.isArray(value) &&
          value.length > 0 &&
          value.length <= MAX_PALETTE &&
          value.every((c) => typeof c === 'string' && LONG.test(c)) &&
          new Set(value).size === value.length) ||
        `must be a list of 1 to ${MAX_PALETTE} different lower-case "#rrggbb" colours`,
      hint: 'For example `palette: ["#1f6feb", "#f5c518", "#3b3b3b"]`.',
    },
  },
  decode(value, ctx) {
    // An emptied picker clears the colour.
    if (value === '') return null;
    if (typeof value !== 'string') throw invalid();
    const color = normaliseColor(value);
    if (!color) throw invalid();
    if (color !== value) ctx.notice('acme.catalog::color.normalised', { from: value, to: color });
    return color;
  },
  upload: {
    maxBytes: 2 * 1024 * 1024,
    accept: ['png', 'jpg', 'jpeg', 'gif', 'webp'],
    async handle(file) {
      const data = await readFile(file.path);
      try {
        // In the core's image queue, apart from the threads logins need (docs/files.md, "Image work").
        return { color: await imageWork(() => averageColor(data)) };
      } catch (error) {
        // Whatever sharp cannot read (not an image, truncated, too many pixels) is the client's file;
        // a full image queue stays its 429.
        if (error instanceof FieldError || isAdminError(error)) throw error;
        throw new FieldError('color.not_image', 'acme.catalog::color.not_image');
      }
    },
  },
});

/** The client files of the picker, registered as the plugin's `assets`. */
export const colorAssets = {
  'color-picker.js': new URL('./color-picker.js', import.meta.url),
  'color-picker.css': new URL('./color-picker.css', import.meta.url),
};

export const colorStrings = {
  en: {
    'color.invalid': 'Send the colour as #rgb or #rrggbb, for example "#1f6feb".',
    'color.normalised': 'The colour {from} was saved as {to}.',
    'color.not_image': 'The file must be a png, jpeg, gif or webp image of at most 4096 × 4096 pixels.',
  },
  de: {
    'color.invalid': 'Senden Sie die Farbe als #rgb oder #rrggbb, zum Beispiel „#1f6feb“.',
    'color.normalised': 'Die Farbe {from} wurde als {to} gespeichert.',
    'color.not_image': 'Die Datei muss ein png-, jpeg-, gif- oder webp-Bild mit höchstens 4096 × 4096 Pixeln sein.',
  },
};
