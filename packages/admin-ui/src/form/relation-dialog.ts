import { html, nothing, type TemplateResult } from 'lit';
import { ApiError } from '../api.ts';
import type { CmsApp, LeaveGuard } from '../app.ts';
import { LightElement } from '../element.ts';
import type { FormField } from '../types.ts';
import './field.ts';
import { CmsField, type FieldOwner } from './field.ts';
import { loadFieldTypeElements } from './element-scripts.ts';
import type { FieldModule } from './field-types.ts';
import { moduleOf, VALUELESS } from './modules.ts';
import { placeRefusal } from './relation-logic.ts';
import { newSessionKey, same, type Values } from './state.ts';

type Labels = Record<string, { label: string; value: unknown }[]>;

/** What the panel asks of a child dialog: its fields, where its values come from and go. */
export interface ChildFormOptions {
  app: CmsApp;
  /** The parent controller (the fields' options and assets are the parent's). */
  ctl: string;
  context: 'create' | 'update';
  title: string;
  submitLabel: string;
  fields: FormField[];
  /** The stored values (a child's record, a link's pivot values); absent on create. */
  load?: (signal: AbortSignal) => Promise<{ values: Values; labels?: Labels }>;
  /** Sends the values; answers the message to announce. Throws the refusal (`ApiError`). */
  submit: (body: Values, childKey: string) => Promise<string>;
  /** Where an upload field of the child form puts its files, under the dialog's own key. */
  files: (field: string, childKey: string) => { base: string; headers: Record<string, string> };
  /** Called once the dialog closed, with the saved message (undefined when closed without saving). */
  closed: (message: string | undefined) => void;
}

let serial = 0;

/** A form field inside a child dialog: the same frame and control, ids of its own dialog (no clash with the form's). */
class CmsChildField extends CmsField {
  idPrefix = 'child';

  override get inputId(): string {
    return `${this.idPrefix}-${this.field.name}`;
  }
}
if (!customElements.get('cms-relation-child-field')) customElements.define('cms-relation-child-field', CmsChildField);

/**
 * A child form in a modal dialog (docs/admin-ui.md, "Relation manager"): the manage form of a
 * child to create or update, or the pivot form of a link. The fields are the form's own modules in
 * the form's own frame; this element is their host, with its own values, refusals (422 under the
 * fields, a 403 explained) and its own session key for uploads (`X-Child-Session-Key`). It has
 * the form's guard: closing it with changes asks Save / Discard / Stay, and while it is open a
 * way out of the page asks too (docs/admin-ui.md, "Edits are never lost").
 */
export class CmsRelationForm extends LightElement implements FieldOwner {
  options!: ChildFormOptions;
  readonly uid = `cms-relation-form-${++serial}`;
  /** The key of this dialog's uploads: they belong to the child's save. */
  readonly sessionKey = newSessionKey();
  readonly generation = 0;
  readonly recordId = undefined;
  modules = new Map<string, FieldModule>();
  base: Values = {};
  values: Values = {};
  labels: Labels = {};
  errors: Record<string, string[]> = {};
  message = '';
  status = '';
  ready = false;
  saving = false;
  asking = false;
  #pending = new Set<string>();
  #previousGuard: LeaveGuard | undefined;
  #closing = false;
  readonly #abort = new AbortController();
  #guard: LeaveGuard | undefined;
  readonly #onBeforeUnload = (event: BeforeUnloadEvent) => {
    event.preventDefault();
    event.returnValue = '';
  };

  get app(): CmsApp {
    return this.options.app;
  }

  get ctl(): string {
    return this.options.ctl;
  }

  get context(): 'create' | 'update' {
    return this.options.context;
  }

  get dirty(): boolean {
    return this.#pending.size > 0 || this.#names().some((name) => !same(this.base[name], this.values[name]));
  }

  #names(): string[] {
    return this.options.fields.filter((field) => !VALUELESS.has(field.type)).map((field) => field.name);
  }

  // ---- the host of the child form's fields ----

  fieldValue(name: string): unknown {
    return this.values[name];
  }

  labelsOf(name: string): readonly { label: string; value: unknown }[] {
    return this.labels[name] ?? [];
  }

  errorsOf(name: string): readonly string[] {
    return this.errors[name] ?? [];
  }

  isReadOnly(field: FormField): boolean {
    return Boolean(field.readOnly);
  }

  announce(message: string): void {
    this.status = message === this.status ? `${message}\u00a0` : message;
    this.requestUpdate();
  }

  setValue(name: string, value: unknown): void {
    const wasDirty = this.dirty;
    this.values = { ...this.values, [name]: value };
    this.querySelector<CmsField>(`[data-name="${CSS.escape(name)}"]`)?.requestUpdate();
    if (this.dirty !== wasDirty) this.#dirtyChanged();
  }

  filesOf(name: string): { base: string; headers: Record<string, string> } {
    return this.options.files(name, this.sessionKey);
  }

  setPending(name: string, pending: boolean): void {
    const wasDirty = this.dirty;
    if (pending) this.#pending.add(name);
    else this.#pending.delete(name);
    if (this.dirty !== wasDirty) this.#dirtyChanged();
  }

  #dirtyChanged(): void {
    if (this.dirty) window.addEventListener('beforeunload', this.#onBeforeUnload);
    else window.removeEventListener('beforeunload', this.#onBeforeUnload);
  }

  // ---- opening and closing ----

  override connectedCallback(): void {
    super.connectedCallback();
    // While the dialog is open, the page's guard asks about its changes too (Back, Forward, sign-out).
    const dialog = this;
    const previous = (this.#previousGuard = this.app.guard);
    const guard: LeaveGuard = {
      get dirty() {
        return dialog.dirty || Boolean(previous?.dirty);
      },
      async save(close: boolean) {
        if (dialog.dirty && !(await dialog.submit())) return false;
        return previous?.dirty ? previous.save(close) : true;
      },
      discard() {
        dialog.close(undefined);
        previous?.discard();
      },
    };
    this.#guard = guard;
    this.app.guard = guard;
    void this.#start();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#abort.abort();
    window.removeEventListener('beforeunload', this.#onBeforeUnload);
    this.#restoreGuard();
  }

  /** The page's guard as it was, unless the screen it guarded is gone meanwhile. */
  #restoreGuard(): void {
    if (this.app.guard !== this.#guard) return;
    const previous = this.#previousGuard;
    this.app.guard = previous instanceof Node && !previous.isConnected ? undefined : previous;
  }

  override firstUpdated(): void {
    this.querySelector<HTMLDialogElement>(`#${this.uid}`)?.showModal();
  }

  async #start(): Promise<void> {
    const fields = this.options.fields;
    try {
      const [modules, loaded] = await Promise.all([
        Promise.all(fields.map((field) => moduleOf(field))),
        this.options.load?.(this.#abort.signal),
        loadFieldTypeElements(this.app, fields),
      ]);
      for (const [i, field] of fields.entries()) this.modules.set(field.name, modules[i]!);
      const values: Values = {};
      for (const field of fields) {
        if (VALUELESS.has(field.type)) continue;
        if (loaded && field.name in loaded.values) values[field.name] = loaded.values[field.name];
        else values[field.name] = field.default !== undefined ? field.default : (this.modules.get(field.name)?.empty?.(field) ?? null);
      }
      this.base = { ...values };
      this.values = values;
      this.labels = loaded?.labels ?? {};
      this.ready = true;
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return;
      this.message = this.#refusalText(error);
    }
    this.requestUpdate();
    await this.updateComplete;
    this.#focusFirst();
  }

  #focusFirst(name?: string): void {
    const dialog = this.querySelector<HTMLDialogElement>(`#${this.uid}`);
    const scope = name ? dialog?.querySelector(`[data-name="${CSS.escape(name)}"]`) : dialog?.querySelector('.cms-relation-form-fields');
    const target =
      scope?.querySelector<HTMLElement>('input:not([type="hidden"]), textarea, select, [tabindex="0"], button') ??
      dialog?.querySelector<HTMLElement>('.cms-alert, .cms-dialog-buttons button');
    target?.focus();
  }

  /** Closes the dialog (saved: with the message to announce); the panel returns the focus to the opener. */
  close(message: string | undefined): void {
    if (this.#closing) return;
    this.#closing = true;
    this.asking = false;
    window.removeEventListener('beforeunload', this.#onBeforeUnload);
    this.#restoreGuard();
    for (const dialog of this.querySelectorAll('dialog')) if (dialog.open) dialog.close();
    this.options.closed(message);
  }

  /** Cancel, Escape, a click on the backdrop: with changes, asks first. */
  #tryClose(): void {
    if (this.saving) return;
    if (!this.dirty) {
      this.close(undefined);
      return;
    }
    this.asking = true;
    this.requestUpdate();
    void this.updateComplete.then(() => {
      const ask = this.querySelector<HTMLDialogElement>(`#${this.uid}-ask`);
      if (ask && !ask.open) ask.showModal();
      ask?.querySelector<HTMLElement>('.cms-primary')?.focus();
    });
  }

  #answer(choice: 'save' | 'discard' | 'stay'): void {
    this.asking = false;
    this.querySelector<HTMLDialogElement>(`#${this.uid}-ask`)?.close();
    this.requestUpdate();
    if (choice === 'discard') this.close(undefined);
    else if (choice === 'save') void this.submit();
    else this.#focusFirst();
  }

  // ---- saving ----

  #body(): Values {
    const body: Values = {};
    for (const field of this.options.fields) {
      if (VALUELESS.has(field.type) || field.readOnly) continue;
      if (this.context === 'update' && same(this.base[field.name], this.values[field.name])) continue;
      const module = this.modules.get(field.name);
      const value = module?.toBody ? module.toBody(this.values[field.name], field) : this.values[field.name];
      if (value !== undefined) body[field.name] = value;
    }
    return body;
  }

  /** Sends the child form; true when saved (the dialog then closes). */
  async submit(): Promise<boolean> {
    if (this.saving || !this.ready) return false;
    this.saving = true;
    this.message = '';
    this.requestUpdate();
    try {
      const message = await this.options.submit(this.#body(), this.sessionKey);
      this.saving = false;
      this.base = { ...this.values };
      this.#pending.clear();
      this.close(message);
      return true;
    } catch (error) {
      this.saving = false;
      if (!(error instanceof ApiError)) throw error;
      const names = new Set(this.options.fields.map((field) => field.name));
      const { placed, unplaced } = placeRefusal(error.details, names);
      this.errors = placed;
      this.message = [this.#refusalText(error), ...unplaced].join(' ');
      this.requestUpdate();
      for (const element of this.querySelectorAll<CmsField>('cms-relation-child-field')) element.requestUpdate();
      await this.updateComplete;
      const first = this.options.fields.find((field) => placed[field.name]);
      if (first) this.#focusFirst(first.name);
      else this.querySelector<HTMLElement>(`#${this.uid} .cms-alert`)?.focus();
      return false;
    }
  }

  #refusalText(error: unknown): string {
    const app = this.app;
    if (!(error instanceof ApiError)) return app.t('error_network');
    if (error.status === 403) return [app.t('relation_forbidden'), error.message].filter(Boolean).join(' ');
    if (error.status === 404) return app.t('relation_gone');
    return error.message || app.t('error_network');
  }

  // ---- rendering ----

  override render(): TemplateResult {
    const app = this.app;
    const id = this.uid;
    return html`<dialog
        id=${id}
        class="cms-dialog cms-relation-dialog"
        aria-labelledby="${id}-title"
        aria-busy=${this.ready ? 'false' : 'true'}
        @cancel=${(event: Event) => {
          event.preventDefault();
          if (!this.asking) this.#tryClose();
        }}
        @close=${() => {
          // Closed by the browser itself (a second Escape): the work is not dropped silently.
          if (!this.#closing && this.dirty) {
            this.querySelector<HTMLDialogElement>(`#${id}`)?.showModal();
            this.#tryClose();
          } else if (!this.#closing) this.close(undefined);
        }}
      >
        <form
          class="cms-relation-form"
          novalidate
          @keydown=${(event: KeyboardEvent) => {
            // The form's shortcut saves the dialog while it is open (the form's own waits under a dialog).
            if ((event.ctrlKey || event.metaKey) && !event.altKey && (event.key === 's' || event.key === 'S')) {
              event.preventDefault();
              void this.submit();
            }
          }}
          @submit=${(event: Event) => {
            event.preventDefault();
            void this.submit();
          }}
        >
          <h2 id="${id}-title">${this.options.title}</h2>
          <p class="cms-status" role="status">${this.status}</p>
          ${this.message ? html`<div class="cms-alert" role="alert" tabindex="-1">${this.message}</div>` : nothing}
          ${
            this.ready
              ? html`<div class="cms-relation-form-fields">
                ${this.options.fields.map(
                  (field) => html`<cms-relation-child-field
                    class="cms-field"
                    data-name=${field.name}
                    .idPrefix=${id}
                    .owner=${this}
                    .field=${field}
                    .module=${this.modules.get(field.name)!}
                  ></cms-relation-child-field>`,
                )}
              </div>`
              : this.message
                ? nothing
                : html`<p>${app.t('loading')}</p>`
          }
          <p class="cms-dialog-buttons">
            <button type="button" class="cms-button" @click=${() => this.#tryClose()}>${app.t('cancel')}</button>
            <button type="submit" class="cms-button cms-primary" ?disabled=${this.saving || !this.ready}>${this.options.submitLabel}</button>
          </p>
        </form>
      </dialog>
      <dialog
        id="${id}-ask"
        class="cms-dialog"
        aria-labelledby="${id}-ask-title"
        aria-describedby="${id}-ask-text"
        @cancel=${(event: Event) => {
          event.preventDefault();
          this.#answer('stay');
        }}
      >
        <h2 id="${id}-ask-title">${app.t('dialog_close_title')}</h2>
        <p id="${id}-ask-text">${app.t('dialog_close_text')}</p>
        <p class="cms-dialog-buttons">
          <button type="button" class="cms-button" @click=${() => this.#answer('stay')}>${app.t('leave_stay')}</button>
          <button type="button" class="cms-button cms-danger" @click=${() => this.#answer('discard')}>${app.t('leave_discard')}</button>
          <button type="button" class="cms-button cms-primary" @click=${() => this.#answer('save')}>${app.t('leave_save')}</button>
        </p>
      </dialog>`;
  }
}

if (!customElements.get('cms-relation-form')) customElements.define('cms-relation-form', CmsRelationForm);
