import { html, nothing, type TemplateResult } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import { ApiError } from '../../api.ts';
import type { components } from '../../api/schema.d.ts';
import { LightElement } from '../../element.ts';
import type { FormField, ListMeta, Row } from '../../types.ts';
import type { FieldModule, FieldView, FormHost } from '../field-types.ts';
import '../relation-dialog.ts';
import type { ChildFormOptions } from '../relation-dialog.ts';
import { cellText, childFilesOf, pageState, type RelationTarget, relationTarget, toggled } from '../relation-logic.ts';
import { type PickerOptions, rowKeys } from '../relation-picker.ts';
import type { Values } from '../state.ts';
import './relation-manager.css';

type RelationSchema = components['schemas']['RelationSchema'];

const SEARCH_DEBOUNCE_MS = 250;

/** The relation schemas of the session, by controller, relation and locale. */
const schemas = new Map<string, Promise<RelationSchema>>();

type Confirm = { kind: 'unlink' | 'delete'; ids: number[] };

/**
 * The panel of a `relation-manager` field (docs/admin-ui.md, "Relation manager"), from the
 * relation's RelationSchema: the related rows with the view list's columns and search, and the
 * declared toolbar buttons — create and update a child in a dialog with the manage form, link
 * through the candidate picker, unlink and delete with a confirm, edit a link's pivot values. On a
 * saved record every change is made at once; before the first save (record 0 and the form session
 * key, when the relation is `deferrable`) every change is deferred: the rows are marked pending,
 * the form counts as changed (`setPending`), and the parent's save applies them. A reload that
 * restores the draft brings the session key back, and the panel reads the pending rows again.
 */
export class CmsRelationManager extends LightElement {
  host!: FormHost;
  field!: FormField;
  readOnly = false;
  /** The id of the panel's focusable frame (the form's error summary links to it). */
  inputId = '';

  /** The field as the form renders it, again after every save, discard and restore (its `generation`). */
  set view(view: FieldView) {
    this.host = view.host;
    this.field = view.field;
    this.readOnly = view.readOnly;
    this.inputId = view.id;
    this.requestUpdate();
  }
  schema: RelationSchema | undefined;
  rows: Row[] = [];
  meta: ListMeta | undefined;
  search = '';
  page = 1;
  sort: { column: string; dir: 'asc' | 'desc' } | undefined;
  selected = new Set<number>();
  loading = false;
  error = '';
  confirm: Confirm | undefined;
  /** The dialog open now: a child form, the pivot form, or the picker. */
  dialog: { kind: 'form'; options: ChildFormOptions } | { kind: 'picker'; options: PickerOptions } | undefined;
  /** What the list was last read with: a new generation or session key reads it again. */
  #readWith = '';
  #opener: HTMLElement | null = null;
  #controller: AbortController | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;

  get #app() {
    return this.host.app;
  }

  get #name(): string {
    return this.field.relation ?? this.field.name;
  }

  get target(): RelationTarget {
    return relationTarget(this.host.ctl, this.host.recordId, this.#name, this.field.deferrable === true, this.host.sessionKey);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#controller?.abort();
    clearTimeout(this.#timer);
  }

  override willUpdate(): void {
    // A save, a discard or a restored draft (a new generation, perhaps another session key): read again.
    const target = this.target;
    const readWith = `${this.host.generation}|${target.kind === 'unsaved' ? '' : target.base}|${this.host.sessionKey}|${this.#app.i18n?.locale}`;
    if (readWith === this.#readWith) return;
    this.#readWith = readWith;
    this.selected = new Set();
    if (target.kind !== 'unsaved') void this.load();
  }

  async #schema(): Promise<RelationSchema> {
    const key = `${this.host.ctl}|${this.#name}|${this.#app.i18n?.locale}`;
    let schema = schemas.get(key);
    if (!schema) {
      schema = this.#app.api
        .call<RelationSchema>('GET', `/${this.host.ctl}/schema/relation/${encodeURIComponent(this.#name)}`)
        .then((a) => a.data);
      schemas.set(key, schema);
      schema.catch(() => schemas.delete(key));
    }
    return schema;
  }

  /** Reads the related rows (and the schema, once); `say` announces how many there are. */
  async load(say = false): Promise<void> {
    const target = this.target;
    if (target.kind === 'unsaved') return;
    this.#controller?.abort();
    const controller = (this.#controller = new AbortController());
    this.loading = true;
    this.requestUpdate();
    try {
      this.schema = await this.#schema();
      const answer = await this.#app.api.call<Row[]>('GET', target.base, {
        query: {
          search: this.search || undefined,
          page: this.page,
          ...(this.sort ? { sort: this.sort.column, dir: this.sort.dir } : {}),
        },
        headers: target.headers,
        signal: controller.signal,
      });
      this.rows = answer.data;
      this.meta = answer.meta as ListMeta;
      this.error = '';
      // Deferred work shows in the list; with none left (all unlinked again) the form is as served.
      if (target.kind === 'deferred' && !this.search) this.host.setPending(this.field.name, this.meta.total > 0);
      if (say) this.host.announce(this.#app.t('relation_rows', {}, this.meta.total));
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return;
      this.error = this.#app.failureMessage(error);
    }
    this.loading = false;
    this.requestUpdate();
  }

  #searchTyped(value: string): void {
    this.search = value;
    this.page = 1;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.load(true), SEARCH_DEBOUNCE_MS);
  }

  #go(page: number): void {
    this.page = page;
    void this.load();
  }

  #sortBy(column: string): void {
    this.sort = { column, dir: this.sort?.column === column && this.sort.dir === 'asc' ? 'desc' : 'asc' };
    void this.load();
  }

  // ---- the operations ----

  /** The panel's buttons are its own once a dialog closes: the focus goes back where it came from. */
  #open(dialog: NonNullable<CmsRelationManager['dialog']>): void {
    this.#opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    this.dialog = dialog;
    this.requestUpdate();
  }

  #closed(message: string | undefined): void {
    this.dialog = undefined;
    this.requestUpdate();
    const opener = this.#opener;
    void this.updateComplete.then(() => {
      const back = opener?.isConnected
        ? opener
        : this.querySelector<HTMLElement>('.cms-relation-toolbar button, .cms-relation-search input');
      back?.focus();
    });
    if (message) this.#changed(message);
  }

  /** After a change: the list again, the message said, and deferred work noted on the form. */
  #changed(message: string): void {
    if (this.target.kind === 'deferred') this.host.setPending(this.field.name, true);
    this.host.announce(message);
    void this.load();
  }

  #refused(error: unknown): void {
    const app = this.#app;
    if (!(error instanceof ApiError)) this.error = app.t('error_network');
    else if (error.status === 404) {
      this.error = app.t('relation_gone');
      void this.load();
    } else {
      const details = error.details[this.field.name] ?? Object.values(error.details).flat();
      this.error = [error.status === 403 ? app.t('relation_forbidden') : '', details.join(' ') || error.message].filter(Boolean).join(' ');
    }
    this.host.announce(this.error);
    this.requestUpdate();
  }

  #childForm(context: 'create' | 'update', row?: Row): void {
    const schema = this.schema!;
    const target = this.target;
    if (target.kind === 'unsaved') return;
    const i18n = this.#app.i18n!;
    const api = this.#app.api;
    const messages = schema.messages;
    const child = row?.id;
    this.#open({
      kind: 'form',
      options: {
        app: this.#app,
        ctl: this.host.ctl,
        context,
        title: i18n.forms(context === 'create' ? messages.createTitle : messages.updateTitle),
        submitLabel: i18n.forms(context === 'create' ? messages.createSubmit : messages.updateSubmit),
        fields: schema.manageForm ?? [],
        ...(row
          ? {
              load: async (signal: AbortSignal) => {
                const answer = await api.call<Values>('GET', `${target.base}/records/${row.id}`, { headers: target.headers, signal });
                return { values: answer.data, labels: (answer.meta.labels ?? {}) as Record<string, { label: string; value: unknown }[]> };
              },
            }
          : {}),
        submit: async (body, childKey) => {
          const headers = { ...target.headers, 'X-Child-Session-Key': childKey };
          if (context === 'create') await api.call('POST', `${target.base}/records`, { body, headers });
          else await api.call('PUT', `${target.base}/records/${child}`, { body, headers });
          return i18n.forms(context === 'create' ? messages.created : messages.updated);
        },
        files: (field, childKey) => childFilesOf(target, child, field, childKey),
        closed: (message) => this.#closed(message),
      },
    });
  }

  #pivotForm(row: Row): void {
    const schema = this.schema!;
    const target = this.target;
    if (target.kind === 'unsaved') return;
    const i18n = this.#app.i18n!;
    const api = this.#app.api;
    this.#open({
      kind: 'form',
      options: {
        app: this.#app,
        ctl: this.host.ctl,
        context: 'update',
        title: `${i18n.forms(schema.messages.pivotTitle)}: ${this.#label(row)}`,
        submitLabel: i18n.forms(schema.messages.pivotSubmit),
        fields: schema.pivotForm ?? [],
        load: async (signal) => ({
          values: (await api.call<Values>('GET', `${target.base}/pivot/${row.id}`, { headers: target.headers, signal })).data,
        }),
        submit: async (body) => {
          await api.call('PUT', `${target.base}/pivot/${row.id}`, { body, headers: target.headers });
          return i18n.forms(schema.messages.pivotSaved);
        },
        files: (field, childKey) => childFilesOf(target, row.id, field, childKey),
        closed: (message) => this.#closed(message),
      },
    });
  }

  #picker(): void {
    const target = this.target;
    if (target.kind === 'unsaved') return;
    this.#open({
      kind: 'picker',
      options: {
        app: this.#app,
        schema: this.schema!,
        base: target.base,
        headers: target.headers,
        field: this.field.name,
        closed: (message) => this.#closed(message),
      },
    });
  }

  #ask(kind: Confirm['kind']): void {
    if (!this.selected.size) return;
    this.#opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    this.confirm = { kind, ids: [...this.selected] };
    this.requestUpdate();
    void this.updateComplete.then(() => this.querySelector<HTMLDialogElement>('.cms-relation-confirm')?.showModal());
  }

  async #confirmed(): Promise<void> {
    const confirm = this.confirm;
    const target = this.target;
    this.querySelector<HTMLDialogElement>('.cms-relation-confirm')?.close();
    if (!confirm || target.kind === 'unsaved') return;
    const messages = this.schema!.messages;
    try {
      const answer = await this.#app.api.call<{ removed: number }>('POST', `${target.base}/${confirm.kind}`, {
        body: { ids: confirm.ids },
        headers: target.headers,
      });
      this.selected = new Set();
      this.#changed(this.#app.i18n!.forms(confirm.kind === 'unlink' ? messages.unlinked : messages.deleted, {}, answer.data.removed));
      // The button that asked is disabled now (nothing is selected): the focus stays in the toolbar.
      await this.updateComplete;
      const active = document.activeElement;
      if (!active || active === document.body || (active as HTMLButtonElement).disabled)
        this.querySelector<HTMLElement>('.cms-relation-toolbar button:not(:disabled)')?.focus();
    } catch (error) {
      this.#refused(error);
    }
  }

  // ---- rendering ----

  #words() {
    const app = this.#app;
    const i18n = app.i18n!;
    return { yes: app.t('yes'), no: app.t('no'), date: (iso: string) => i18n.date(iso, true), number: (n: number) => i18n.number(n) };
  }

  #label(row: Row): string {
    const first = this.schema?.view.list.columns[0]?.key;
    return (first ? cellText(row[first], this.#words()) : '') || this.#app.t('record_title', { id: row.id });
  }

  override render(): TemplateResult {
    const app = this.#app;
    const target = this.target;
    const label = this.field.label ?? this.field.name;
    if (target.kind === 'unsaved')
      return html`<p class="cms-muted" id=${this.inputId} tabindex="-1">${app.t('relation_save_first', { label })}</p>`;
    const schema = this.schema;
    return html`<div class="cms-relation" id=${this.inputId} tabindex="-1">
      ${target.kind === 'deferred' ? html`<p class="cms-muted cms-relation-note">${app.t('relation_pending_note')}</p>` : nothing}
      ${this.error ? html`<div class="cms-alert" role="alert">${this.error}</div>` : nothing}
      ${schema ? this.#panel(schema, target.kind === 'deferred', label) : html`<p>${this.error ? '' : app.t('loading')}</p>`}
      ${this.#dialogView()} ${schema ? this.#confirmView(schema) : nothing}
    </div>`;
  }

  #panel(schema: RelationSchema, deferred: boolean, label: string): TemplateResult {
    const app = this.#app;
    const i18n = app.i18n!;
    const messages = schema.messages;
    const buttons = new Set(this.readOnly ? [] : schema.view.toolbarButtons);
    const choosing = buttons.has('unlink') || buttons.has('delete');
    const pivot = !this.readOnly && (schema.pivotForm?.length ?? 0) > 0;
    const update = buttons.has('update') && (schema.manageForm?.length ?? 0) > 0;
    const columns = schema.view.list.columns;
    const words = this.#words();
    const ids = this.rows.map((row) => row.id);
    const state = pageState(this.selected, ids);
    const meta = this.meta;
    const count = this.selected.size;
    const searchId = `${this.inputId}-search`;
    return html`<div class="cms-toolbar cms-relation-toolbar" role="group" aria-label=${label}>
        ${buttons.has('create') && schema.manageForm?.length ? html`<button type="button" class="cms-button" @click=${() => this.#childForm('create')}>${i18n.forms(messages.create)}</button>` : nothing}
        ${buttons.has('link') ? html`<button type="button" class="cms-button" @click=${() => this.#picker()}>${i18n.forms(messages.link)}</button>` : nothing}
        ${buttons.has('unlink') ? html`<button type="button" class="cms-button" ?disabled=${!count} @click=${() => this.#ask('unlink')}>${i18n.forms(messages.unlinkSelected)}</button>` : nothing}
        ${buttons.has('delete') ? html`<button type="button" class="cms-button cms-danger" ?disabled=${!count} @click=${() => this.#ask('delete')}>${i18n.forms(messages.deleteSelected)}</button>` : nothing}
        ${count ? html`<span class="cms-muted">${app.t('relation_selected', {}, count)}</span>` : nothing}
      </div>
      ${
        schema.view.showSearch
          ? html`<p class="cms-relation-search">
            <label class="cms-visually-hidden" for=${searchId}>${app.t('relation_search', { label })}</label>
            <input
              id=${searchId}
              class="cms-input cms-search"
              type="search"
              placeholder=${app.t('relation_search', { label })}
              .value=${this.search}
              @input=${(event: Event) => this.#searchTyped((event.target as HTMLInputElement).value)}
              @keydown=${(event: KeyboardEvent) => {
                // Enter searches at once; it never submits the form around the panel.
                if (event.key === 'Enter') {
                  event.preventDefault();
                  clearTimeout(this.#timer);
                  void this.load(true);
                }
              }}
            />
          </p>`
          : nothing
      }
      ${
        this.rows.length
          ? html`<div class="cms-table-wrap">
            <table class="cms-table cms-relation-table" aria-label=${label} aria-busy=${this.loading ? 'true' : 'false'}>
              <thead>
                <tr>
                  ${
                    choosing
                      ? html`<th scope="col" class="cms-check">
                        <input
                          type="checkbox"
                          aria-label=${app.t('select_all')}
                          .checked=${state === 'all'}
                          .indeterminate=${state === 'some'}
                          @change=${(event: Event) => {
                            this.selected = toggled(this.selected, ids, (event.target as HTMLInputElement).checked);
                            this.requestUpdate();
                          }}
                        />
                      </th>`
                      : nothing
                  }
                  ${columns.map((column) => {
                    const sorted = this.sort?.column === column.key;
                    return html`<th scope="col" aria-sort=${column.sortable ? (sorted ? (this.sort!.dir === 'asc' ? 'ascending' : 'descending') : 'none') : nothing}>
                      ${
                        column.sortable
                          ? html`<button type="button" class="cms-sort" @click=${() => this.#sortBy(column.key)}>
                            ${column.label}<span aria-hidden="true" class="cms-sort-mark">${sorted ? (this.sort!.dir === 'desc' ? '▼' : '▲') : ''}</span>
                          </button>`
                          : column.label
                      }
                    </th>`;
                  })}
                  ${update || pivot ? html`<th scope="col"><span class="cms-visually-hidden">${app.t('row_actions')}</span></th>` : nothing}
                </tr>
              </thead>
              <tbody @keydown=${rowKeys}>
                ${repeat(
                  this.rows,
                  (row) => row.id,
                  (row) => {
                    const name = this.#label(row);
                    return html`<tr class=${deferred ? 'cms-relation-pending' : ''} aria-selected=${choosing ? String(this.selected.has(row.id)) : nothing}>
                      ${
                        choosing
                          ? html`<td class="cms-check">
                            <input
                              type="checkbox"
                              aria-label=${app.t('relation_select_row', { label: name })}
                              .checked=${this.selected.has(row.id)}
                              @change=${(event: Event) => {
                                this.selected = toggled(this.selected, [row.id], (event.target as HTMLInputElement).checked);
                                this.requestUpdate();
                              }}
                            />
                          </td>`
                          : nothing
                      }
                      ${columns.map(
                        (column, index) => html`<td>
                          ${cellText(row[column.key], words)}
                          ${index === 0 && deferred ? html` <span class="cms-state cms-relation-badge">${app.t('relation_pending')}</span>` : nothing}
                        </td>`,
                      )}
                      ${
                        update || pivot
                          ? html`<td class="cms-row-actions">
                            ${
                              update
                                ? html`<button type="button" class="cms-button" aria-label=${app.t('relation_row_action', { action: app.t('edit'), label: name })} @click=${() => this.#childForm('update', row)}>
                                  ${app.t('edit')}
                                </button>`
                                : nothing
                            }
                            ${
                              pivot
                                ? html`<button type="button" class="cms-button" aria-label=${app.t('relation_row_action', { action: i18n.forms(messages.editPivot), label: name })} @click=${() => this.#pivotForm(row)}>
                                  ${i18n.forms(messages.editPivot)}
                                </button>`
                                : nothing
                            }
                          </td>`
                          : nothing
                      }
                    </tr>`;
                  },
                )}
              </tbody>
            </table>
          </div>`
          : html`<p class="cms-empty">${this.loading ? app.t('loading') : i18n.forms(messages.empty)}</p>`
      }
      ${
        meta && meta.last_page > 1
          ? html`<nav class="cms-pager" aria-label=${app.t('pagination')}>
            <button type="button" class="cms-button" ?disabled=${meta.page <= 1} @click=${() => this.#go(meta.page - 1)}>${app.t('previous_page')}</button>
            <span>${app.t('relation_page', { page: meta.page, count: meta.last_page })}</span>
            <button type="button" class="cms-button" ?disabled=${meta.page >= meta.last_page} @click=${() => this.#go(meta.page + 1)}>${app.t('next_page')}</button>
          </nav>`
          : nothing
      }`;
  }

  #dialogView(): TemplateResult | typeof nothing {
    const dialog = this.dialog;
    if (!dialog) return nothing;
    return dialog.kind === 'form'
      ? html`<cms-relation-form .options=${dialog.options}></cms-relation-form>`
      : html`<cms-relation-picker .options=${dialog.options}></cms-relation-picker>`;
  }

  #confirmView(schema: RelationSchema): TemplateResult {
    const confirm = this.confirm;
    const i18n = this.#app.i18n!;
    const messages = schema.messages;
    const id = `${this.inputId}-confirm`;
    const count = confirm?.ids.length ?? 0;
    const text = confirm?.kind === 'delete' ? i18n.forms(messages.deleteConfirm, {}, count) : i18n.forms(messages.unlinkConfirm, {}, count);
    return html`<dialog
      class="cms-dialog cms-relation-confirm"
      aria-labelledby="${id}-text"
      @close=${() => {
        this.confirm = undefined;
        this.requestUpdate();
        const opener = this.#opener;
        if (opener?.isConnected && !opener.matches(':disabled')) opener.focus();
        else this.querySelector<HTMLElement>('.cms-relation-toolbar button:not(:disabled), .cms-relation-search input')?.focus();
      }}
    >
      <p id="${id}-text">${text}</p>
      <p class="cms-dialog-buttons">
        <button type="button" class="cms-button" @click=${() => this.querySelector<HTMLDialogElement>('.cms-relation-confirm')?.close()}>${this.#app.t('cancel')}</button>
        <button type="button" class="cms-button ${confirm?.kind === 'delete' ? 'cms-danger' : 'cms-primary'}" @click=${() => void this.#confirmed()}>
          ${confirm?.kind === 'delete' ? i18n.forms(messages.deleteSelected) : i18n.forms(messages.unlinkSelected)}
        </button>
      </p>
    </dialog>`;
  }
}

if (!customElements.get('cms-relation-manager')) customElements.define('cms-relation-manager', CmsRelationManager);

const module: FieldModule = {
  frame: 'group',
  render: (view) => html`<cms-relation-manager .view=${view}></cms-relation-manager>`,
};

export default module;
