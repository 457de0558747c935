import { IMAGE_EXTENSIONS, type SniffedImage } from './image.ts';

/** Limits of the media upload (spec limits "Media `folder` length" and "Media name collision suffixes"). */
const FOLDER_MAX_CHARS = 100;
export const MAX_NAME_SUFFIX = 999;
/** Every object of the upload lives under this prefix of the store. */
const MEDIA_PREFIX = 'journal';
/** Characters of a stored name before its extension; a longer uploaded name is cut. */
const STEM_MAX_CHARS = 120;

/** Why a `folder` is refused: each is a message of its own (docs/journal.md, "Media upload"). */
export type FolderProblem = 'too_long' | 'dots' | 'characters';

/**
 * The folder's segments below `journal/`: at most 100 characters of ASCII letters, digits, `_`,
 * `-` and `/`, never `..`; a leading `journal` segment is dropped (it names the prefix again), and
 * empty, `.` and `..` segments are skipped (the character rule already keeps dots out).
 */
export function folderSegments(folder: string): string[] | FolderProblem {
  if ([...folder].length > FOLDER_MAX_CHARS) return 'too_long';
  if (folder.includes('..')) return 'dots';
  if (!/^[A-Za-z0-9_\-/]*$/.test(folder)) return 'characters';
  const segments = folder.split('/').filter((segment) => segment !== '' && segment !== '.' && segment !== '..');
  if (segments[0] === MEDIA_PREFIX) segments.shift();
  return segments;
}

/** The lower-case extension of the uploaded name when it is an image extension (case-insensitive). */
export function imageExtensionOf(name: string): string | undefined {
  const extension = /\.([A-Za-z0-9]+)$/.exec(baseName(name))?.[1]?.toLowerCase();
  return extension && (IMAGE_EXTENSIONS as readonly string[]).includes(extension) ? extension : undefined;
}

/** The last segment of a client's name, whichever slash it used. */
const baseName = (name: string) => name.replace(/\\/g, '/').split('/').pop()!.trim();

/** The type each image extension names: `jpg` and `jpeg` both name a JPEG. */
const TYPE_OF: Record<string, SniffedImage['extension']> = { jpg: 'jpg', jpeg: 'jpg', png: 'png', gif: 'gif', webp: 'webp' };

/** The extensions that name a type, for the refusal of a name that names another (`.jpg or .jpeg`). */
export const extensionsOf = (type: SniffedImage['extension']): string[] =>
  Object.keys(TYPE_OF).filter((extension) => TYPE_OF[extension] === type);

/** True when the uploaded name's extension (any case) names the type the bytes are. */
export const extensionMatches = (uploaded: string, image: SniffedImage): boolean =>
  TYPE_OF[imageExtensionOf(uploaded) ?? ''] === image.extension;

/**
 * The stored file name: the base name of the uploaded name, made safe as a storage key. Accents
 * are dropped (`café` is `cafe`), any other character outside letters, digits, `_`, `.` and `-`
 * becomes `-`, dots never follow each other or lead, and the name is cut to 120 characters
 * (`image` when nothing is left). The extension is kept as it was uploaded, its case included
 * (`photo.PNG` stays `photo.PNG`): the upload has checked that it names the content's type.
 */
export function storedName(uploaded: string): { stem: string; extension: string } {
  const base = baseName(uploaded);
  const dot = base.lastIndexOf('.');
  const given = dot > 0 ? base.slice(dot + 1) : '';
  const stem =
    [
      ...(dot > 0 ? base.slice(0, dot) : base)
        .normalize('NFKD')
        .replace(/[\u0300-\u036f]/g, '')
        .replace(/[^A-Za-z0-9_.-]+/g, '-')
        .replace(/\.{2,}/g, '.')
        .replace(/-{2,}/g, '-')
        .replace(/^[._-]+/, ''),
    ]
      .slice(0, STEM_MAX_CHARS)
      .join('')
      .replace(/\.+$/, '') || 'image';
  return { stem, extension: given };
}

/** The key of the `n`th try: `journal/<folder>/<stem>.<ext>`, then `<stem>-<n>.<ext>` for n = 1..999. */
export const candidateKey = (segments: readonly string[], name: { stem: string; extension: string }, n: number): string =>
  [MEDIA_PREFIX, ...segments, `${name.stem}${n === 0 ? '' : `-${n}`}.${name.extension}`].join('/');
