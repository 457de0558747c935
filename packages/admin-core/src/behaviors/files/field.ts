import type { ResolvedController, ResolvedField } from '../../controllers/resolve.ts';
import { NotFound } from '../../errors/index.ts';
import { IMAGE_EXTENSIONS } from '../../storage/images.ts';

/** A fileupload field's rules as the file routes and the save apply them (docs/files.md, "Fields"). */
export interface FileField {
  field: ResolvedField;
  name: string;
  image: boolean;
  /** 1 for attachOne. */
  maxFiles: number;
  /** Lower-case extensions a file name must end in (images: the image extensions by default). */
  fileTypes: readonly string[] | undefined;
  maxBytes: number;
  public: boolean;
  required: boolean;
  useCaption: boolean;
  thumb: { width: number; height: number; mode: 'crop' | 'fit' };
  /** Images are stored with their metadata as uploaded (`keepMetadata: true`); by default it is removed. */
  keepMetadata: boolean;
}

/** The sizes of a protected image's thumbnail route: the field's, its double, and the lists' 100×100 and 200×200 (docs/files.md, "Thumbnails"). */
export const thumbSizes = (file: FileField): Array<[number, number]> => [
  [file.thumb.width, file.thumb.height],
  [file.thumb.width * 2, file.thumb.height * 2],
  [100, 100],
  [200, 200],
];

/** Without `maxFiles` a field holds this many files at most. */
const DEFAULT_MAX_FILES = 100;
/** Without `maxFilesize`: 10 MiB. */
export const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;

const cache = new WeakMap<ResolvedField, FileField>();

export function fileFieldOf(field: ResolvedField): FileField {
  let resolved = cache.get(field);
  if (resolved) return resolved;
  const config = field.config;
  const image = config.mode === 'image';
  resolved = {
    field,
    name: field.name,
    image,
    maxFiles: config.maxFiles ?? DEFAULT_MAX_FILES,
    fileTypes: config.fileTypes ?? (image ? IMAGE_EXTENSIONS : undefined),
    maxBytes: config.maxFilesize !== undefined ? Math.floor(config.maxFilesize * 1024 * 1024) : DEFAULT_MAX_BYTES,
    public: config.public !== false && config.protected !== true,
    required: config.required === true,
    useCaption: config.useCaption === true,
    thumb: {
      width: config.imageWidth ?? 200,
      height: config.imageHeight ?? 200,
      mode: config.thumbOptions?.mode === 'fit' ? 'fit' : 'crop',
    },
    keepMetadata: config.keepMetadata === true,
  };
  cache.set(field, resolved);
  return resolved;
}

/** The controller's fileupload fields. */
export const fileFields = (controller: ResolvedController): FileField[] =>
  [...controller.fields.values()].filter((field) => field.type.name === 'fileupload').map(fileFieldOf);

/** The fileupload field a route names; anything else is 404. */
export function fileFieldNamed(controller: ResolvedController, name: string | undefined): FileField {
  const field = name === undefined ? undefined : controller.fields.get(name);
  if (field?.type.name !== 'fileupload') throw NotFound();
  return fileFieldOf(field);
}
