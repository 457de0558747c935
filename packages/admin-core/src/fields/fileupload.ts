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
  'useCaption',
  'thumbOptions',
] as const;

/**
 * Attached files (docs/field-types.md, "fileupload"): the field is checked and served in the
 * schema; it has no value in a save body. The file routes that upload and attach files are not
 * built.
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
      throw configError(ctx, 'maxFilesize', 'must be a number of megabytes above 0', 'Use for example 2 or 0.5.');
    }
    must.positiveInteger(ctx, 'imageWidth', field.imageWidth);
    must.positiveInteger(ctx, 'imageHeight', field.imageHeight);
    must.string(ctx, 'prompt', field.prompt);
    must.boolean(ctx, 'protected', field.protected);
    must.boolean(ctx, 'useCaption', field.useCaption);
    if (field.thumbOptions !== undefined && !(isPlainObject(field.thumbOptions) && typeof field.thumbOptions.mode === 'string')) {
      throw configError(ctx, 'thumbOptions', 'must be `{ mode }`', 'Use for example `{ mode: "crop" }`.');
    }
  },
  schema(field, ctx) {
    const schema: Record<string, unknown> = { mode: field.mode ?? 'file' };
    for (const key of KEYS) if (key !== 'mode' && field[key] !== undefined) schema[key] = field[key];
    if (typeof schema.prompt === 'string') schema.prompt = ctx.t(schema.prompt);
    return schema;
  },
};
