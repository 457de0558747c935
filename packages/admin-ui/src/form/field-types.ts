import type { TemplateResult } from 'lit';
import type { CmsApp } from '../app.ts';
import type { FormField } from '../types.ts';

/**
 * The contract between the form screen and the editors of its fields (docs/admin-ui.md, "Forms").
 * The form renders each field's frame — label (or legend), comment, error message — and asks the
 * field's module for the control in between. A control never keeps the value to itself: it shows
 * `view.value` and reports every change through `view.set`, which is how the form knows what
 * changed (different from what was served), guards it, stores the draft and saves it.
 */

/** What a control knows about the form around it. */
export interface FormHost {
  readonly app: CmsApp;
  /** The controller's address, `acme/catalog/products`. */
  readonly ctl: string;
  /** The record's id; undefined on the create form. */
  readonly recordId: number | undefined;
  readonly context: 'create' | 'update' | 'preview';
  /** The form session key of this form (`X-Session-Key`), kept across a reload with the draft. */
  readonly sessionKey: string;
  /** The current value of another field (a money field's `currencyFrom`, a preset's source). */
  fieldValue(name: string): unknown;
  /** Labels of relation values as the record served them (`meta.labels`), by field name. */
  labelsOf(name: string): readonly { label: string; value: unknown }[];
  /** Says something in the form's polite live region. */
  announce(message: string): void;
  /** Sets another field's value, as the admin would (a widget's `fill`). */
  setValue(name: string, value: unknown): void;
  /** The messages of a field's last refusal (422 or 403 `details`). */
  errorsOf(name: string): readonly string[];
  /**
   * Where a `fileupload` field's files are (the file base of docs/files.md,
   * `/{ctl}/{id|0}/files/{field}`) and the headers that hold uploads for this form's save
   * (`X-Session-Key`; a child form in a relation dialog answers its own base and
   * `X-Child-Session-Key`).
   */
  filesOf(name: string): { base: string; headers: Record<string, string> };
  /**
   * A valueless field (relation manager, uploads) holds work in the form session that the next
   * save applies (deferred links and children, pending uploads): while it does, the form counts as
   * changed — guarded on every exit, kept as a draft with its session key, so a reload finds the
   * work again (docs/admin-ui.md, "Edits are never lost").
   */
  setPending(name: string, pending: boolean): void;
  /**
   * Grows on every save, discard and draft restore: a valueless field whose lists depend on the
   * record or the session key (pending rows, pending files) reads them again when it changes.
   */
  readonly generation: number;
}

/** One field as its control sees it, rebuilt on every render of the field. */
export interface FieldView {
  readonly field: FormField;
  readonly value: unknown;
  /** The id the form's `<label for>` points at: the control's focusable element carries it. */
  readonly id: string;
  /** Ids of the comment and the error message, for `aria-describedby` on the focusable element. */
  readonly describedBy: string | undefined;
  readonly invalid: boolean;
  /** Shown, not editable: `readOnly` fields, the preview screen, a plugin element that did not load. */
  readonly readOnly: boolean;
  readonly host: FormHost;
  /** A new value for the field (the form compares it with the served value). */
  set(value: unknown): void;
}

export interface FieldModule {
  /** The control of the field. */
  render(view: FieldView): TemplateResult;
  /**
   * `group`: the control is several inputs (a locale per input, chips, a permission table); the
   * form frames it in a `fieldset` whose `legend` is the label instead of `<label for>`.
   */
  readonly frame?: 'label' | 'group';
  /** The value of a new record when the field has no `default` (an empty string when absent). */
  empty?(field: FormField): unknown;
  /** The value sent on save; `undefined` leaves the key out of the body (a password not typed). */
  toBody?(value: unknown, field: FormField): unknown;
}
