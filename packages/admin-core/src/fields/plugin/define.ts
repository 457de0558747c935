import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../../auth/principal.ts';
import type { Storage } from '../../storage/storage.ts';
import type { PropertyInfo } from '../types.ts';

/*
 * What a plugin declares under `fieldTypes: { <alias>: { … } }` (docs/field-types.md, "Declaring
 * one"). The registry checks every definition at start-up and turns it into a `FieldType` stored
 * in a column, so the save and show paths treat it like a built-in type.
 */

/** Everything a plugin's `decode` sees. It runs inside the save transaction. */
export interface PluginFieldDecodeContext {
  /** The form field's name. */
  field: string;
  mode: 'create' | 'update';
  /** A translatable type: the locale of this value. Otherwise the locale of the request. */
  locale: string;
  /** The field's `typeOptions` (checked at start-up against the type's `options`). */
  options: Readonly<Record<string, unknown>>;
  /** The bound column (its `columnTypes` tell e.g. a `varchar(7)`). */
  property?: PropertyInfo;
  /** The save transaction's EntityManager: use it, and only it, for any query. */
  em: EntityManager;
  principal: Principal;
  /**
   * Reports something the admin should know although the save succeeds (for example "the value
   * was normalised"): `key` is a string key such as `acme.catalog::color.normalised`, localized in
   * the request's locale. Served in the save answer's `meta.notices`.
   */
  notice(key: string, params?: Record<string, string | number>): void;
}

export interface PluginFieldEncodeContext {
  /** The field's `typeOptions`. */
  options: Readonly<Record<string, unknown>>;
  /** A translatable type: the locale of this value; otherwise undefined. */
  locale?: string;
}

/** A key a field may set in `typeOptions`, with the start-up check of its value. */
export interface PluginFieldOption {
  /** `true` accepts the value; `false` or a sentence saying what is wrong refuses it (a ConfigError). */
  check(value: unknown): boolean | string;
  /** How a valid value looks, for the start-up error: for example 'Use a list of "#rrggbb" colours.'. */
  hint?: string;
}

/** The uploaded file as a plugin's upload handler gets it. The name and the type are client claims. */
export interface PluginUploadedFile {
  /** Temporary path of the upload; removed after the request. Read it, never keep the path. */
  path: string;
  /** The name the client sent: never use it as a path or trust its extension for the content. */
  originalName: string;
  /** Lower-case extension of `originalName` (without the dot), `''` when it has none. */
  extension: string;
  /** The type the client claimed: never trusted. */
  claimedType: string;
  size: number;
}

export interface PluginFieldUploadContext {
  field: string;
  /** The locale of the request (for messages). */
  locale: string;
  options: Readonly<Record<string, unknown>>;
  /** The transaction the record was loaded (and locked) in. */
  em: EntityManager;
  principal: Principal;
  /** The admin's blob storage. Blobs written here are not removed if the transaction fails. */
  storage: Storage;
  /** The record, loaded through the form scope and locked for the request. */
  record: Record<string, unknown>;
}

export interface PluginFieldUpload {
  /** Largest accepted file in bytes (at most `PLUGIN_UPLOAD_MAX_BYTES`); a larger file is a 422. */
  maxBytes: number;
  /** Lower-case extensions (without the dot) the uploaded name must have; any name when absent. */
  accept?: string[];
  /**
   * Handles the file; what it answers (any JSON value) is the `data` of the success envelope. A
   * `FieldError` is a 422 on the form field; any other error an opaque 500, and the transaction is
   * rolled back.
   */
  handle(file: PluginUploadedFile, ctx: PluginFieldUploadContext): unknown | Promise<unknown>;
}

/** A field type a plugin registers by alias (docs/field-types.md, "Plugin field types"). */
export interface PluginFieldTypeDefinition {
  /** The custom element the admin application renders; must start with `{vendor}-`. */
  element: string;
  /** Values are objects of locale to value, decoded per locale and stored as one json object. */
  translatable?: boolean;
  /** The keys a field may set in `typeOptions`, each with its check. A key not declared here fails start-up. */
  options?: Record<string, PluginFieldOption>;
  /** Files of the plugin's own `assets` the element needs: at least one script. */
  assets: { scripts?: string[]; styles?: string[] };
  /**
   * Column types (without modifiers: `varchar`, `text`, `jsonb`, …) the bound property may have;
   * any column when absent. Translatable types are always stored in `json`/`jsonb`.
   */
  columnTypes?: string[];
  /**
   * Validates and converts a submitted value (one locale's value for a translatable type) into
   * the value to store. Throw `FieldError` for a 422 on the field; anything else thrown is an
   * opaque 500 and nothing is written. Never called with `null` (it clears the value) nor with a
   * value equal to the one served (the save leaves it alone).
   */
  decode(value: unknown, ctx: PluginFieldDecodeContext): unknown | Promise<unknown>;
  /** Turns a stored value (never null) into its JSON form in a record; the stored value as is when absent. */
  encode?(value: unknown, ctx: PluginFieldEncodeContext): unknown;
  /** `POST /{ctl}/{id}/fields/{field}/upload` hands its file to this handler. */
  upload?: PluginFieldUpload;
  /**
   * The JSON schema (an OpenAPI 3.0 Schema Object) of one value as a record serves it: what
   * `encode` answers, or the stored value. The admin's OpenAPI document uses it for the field's
   * value in records (docs/openapi.md, "Plugin field types"); default: any JSON value. A
   * translatable type describes one locale's value. Plain JSON data only.
   */
  valueSchema?: Readonly<Record<string, unknown>>;
  /**
   * The codes of the `FieldError`s the type throws (`color.invalid`), listed in the OpenAPI
   * document among the codes of a 422. Each is `{name}.{reason}` and not a core code.
   */
  errorCodes?: readonly string[];
}

/** Typed helper: returns its input, for inference and editor help. */
export const definePluginFieldType = <const T extends PluginFieldTypeDefinition>(definition: T): T => definition;

/** The largest `upload.maxBytes` a plugin field type may declare: 50 MiB. */
export const PLUGIN_UPLOAD_MAX_BYTES = 50 * 1024 * 1024;

/** A field notice in a save answer's `meta.notices` (docs/field-types.md, "Saving"). */
export interface FieldNotice {
  field: string;
  /** Localized in the request's locale. */
  message: string;
  /** The locale of the value the notice is about (a translatable type's locale, else the request's). */
  locale: string;
}
