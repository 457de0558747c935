import { configError, isPlainObject, must } from './common.ts';
import { noValue } from './no-value.ts';
import type { FieldType } from './types.ts';

const KEYS = [
  'mode',
  'fileTypes',
  'mimeTypes',
  'maxFiles',
  'maxFilesize',
  'imageWidth',
  'imageHeight',
  'prompt',
  'protected',
  'public',
  'useCaption',
  'thumbOptions',
  'keepMetadata',
] as const;

/**
 * Attached files (docs/field-types.md, "fileupload"): the field is checked and served in the
 * schema; it has no value in a save body. Its files go through the file routes (docs/files.md).
 */
export const fileuploadField: FieldType = {
  name: 'fileupload',
  ...noValue,
  keys: KEYS,
  check(field, ctx) {
    must.oneOf(ctx, 'mode', field.mode, ['image', 'file']);
    must.stringArray(ctx, 'fileTypes', field.fileTypes);
    const upper = field.fileTypes?.find((ext) => !/^[a-z0-9]+$/.test(ext));
    if (upper !== undefined)
      throw configError(
        ctx,
        'field_option_invalid',
        'fileTypes',
        `"${upper}" is not a lower-case extension`,
        'Write extensions in lower case without the dot, for example "jpg".',
      );
    must.stringArray(ctx, 'mimeTypes', field.mimeTypes);
    must.positiveInteger(ctx, 'maxFiles', field.maxFiles);
    if (
      field.maxFilesize !== undefined &&
      !(typeof field.maxFilesize === 'number' && Number.isFinite(field.maxFilesize) && field.maxFilesize > 0)
    ) {
      throw configError(ctx, 'field_option_invalid', 'maxFilesize', 'must be a number of megabytes above 0', 'Use for example 2 or 0.5.');
    }
    must.positiveInteger(ctx, 'imageWidth', field.imageWidth);
    must.positiveInteger(ctx, 'imageHeight', field.imageHeight);
    must.string(ctx, 'prompt', field.prompt);
    must.boolean(ctx, 'protected', field.protected);
    must.boolean(ctx, 'public', field.public);
    // Contradictions fail start-up (docs/files.md, "Fields").
    if (field.protected !== undefined && field.public !== undefined && field.protected === field.public)
      throw configError(
        ctx,
        'field_options_conflict',
        'public',
        '`public` and `protected` contradict each other',
        'Keep one of them: `public: false` is enough.',
      );
    if (field.mode === 'image') {
      const notImage = field.fileTypes?.find((ext) => !['jpg', 'jpeg', 'png', 'gif', 'webp'].includes(ext));
      if (notImage !== undefined)
        throw configError(
          ctx,
          'field_options_conflict',
          'fileTypes',
          `"${notImage}" is not an image type of an image-mode field`,
          'Use jpg, jpeg, png, gif or webp, or `mode: "file"`.',
        );
    } else if (field.keepMetadata !== undefined) {
      throw configError(
        ctx,
        'field_options_conflict',
        'keepMetadata',
        'metadata is removed from images only',
        'Set `mode: "image"`, or remove `keepMetadata`.',
      );
    } else if (field.thumbOptions !== undefined || field.imageWidth !== undefined || field.imageHeight !== undefined) {
      throw configError(
        ctx,
        'field_options_conflict',
        field.thumbOptions !== undefined ? 'thumbOptions' : 'imageWidth',
        'thumbnails are for image-mode fields',
        'Set `mode: "image"`, or remove the thumbnail keys.',
      );
    }
    if (field.required === true && field.maxFiles !== undefined && field.maxFiles < 1)
      throw configError(ctx, 'field_options_conflict', 'maxFiles', 'a required field must allow a file', 'Use maxFiles of 1 or more.');
    must.boolean(ctx, 'useCaption', field.useCaption);
    must.boolean(ctx, 'keepMetadata', field.keepMetadata);
    if (field.thumbOptions !== undefined && !(isPlainObject(field.thumbOptions) && ['crop', 'fit'].includes(field.thumbOptions.mode))) {
      throw configError(
        ctx,
        'field_option_invalid',
        'thumbOptions',
        'must be `{ mode: "crop" | "fit" }`',
        'Use for example `{ mode: "crop" }`.',
      );
    }
  },
  schema(field, ctx) {
    const schema: Record<string, unknown> = { mode: field.mode ?? 'file' };
    // `keepMetadata` is a rule of the server's storage, not served.
    for (const key of KEYS)
      if (key !== 'mode' && key !== 'public' && key !== 'keepMetadata' && field[key] !== undefined) schema[key] = field[key];
    // `public: false` is served as the FormField's `protected`.
    if (field.public === false) schema.protected = true;
    if (typeof schema.prompt === 'string') schema.prompt = ctx.t(schema.prompt);
    return schema;
  },
};
