import { html, nothing, type TemplateResult } from 'lit';
import { ApiError } from '../api.ts';
import type { CmsApp } from '../app.ts';
import type { components } from '../api/schema.d.ts';
import { LightElement } from '../element.ts';
import type { ListMeta, Row } from '../types.ts';
import { cellText, pageState, toggled } from './relation-logic.ts';

type RelationSchema = components['schemas']['RelationSchema'];

const SEARCH_DEBOUNCE_MS = 250;

export interface PickerOptions {
  app: CmsApp;
  schema: RelationSchema;
  /** The relation base and its headers (`X-Session-Key` when deferred). */
  base: string;
  headers: Record<string, string>;
  /** The relation-manager field's name: an ineligible link is refused under it. */
  field: string;
  /** Called once the picker closed, with the message to announce after a link. */
  closed: (message: string | undefined) => void;
}

let serial = 0;

/**
 * Up and Down go to the same control (checkbox or button) of the row above or below, Ctrl+Home and
 * Ctrl+End to the first and last row, as in the lists (docs/admin-ui.md, "Lists"); Tab still walks
 * every control.
 */
export function rowKeys(event: KeyboardEvent): void {
  const cell = (event.target as HTMLElement).closest('td');
  const row = cell?.parentElement as HTMLTableRowElement | null;
  if (!cell || !row) return;
  const rows = [...row.parentElement!.children] as HTMLTableRowElement[];
  const at = rows.indexOf(row);
  const next =
    event.key === 'ArrowDown'
      ? rows[at + 1]
      : event.key === 'ArrowUp'
        ? rows[at - 1]
        : event.ctrlKey && event.key === 'Home'
          ? rows[0]
          : event.ctrlKey && event.key === 'End'
            ? rows.at(-1)
            : undefined;
  const control = next?.cells[cell.cellIndex]?.querySelector<HTMLElement>('input, button');
  if (!control) return;
  event.preventDefault();
  control.focus();
}

/**
 * The candidate picker (docs/admin-ui.md, "Relation manager"): a modal dialog over
 * `{base}/candidates`, paged as the server pages it (5 a page), searched as typed; the chosen rows
 * are kept across pages and searches, and "Link" sends them at once (`POST {base}/link`).
 */
export class CmsRelationPicker extends LightElement {
  options!: PickerOptions;
  readonly uid = `cms-relation-picker-${++serial}`;
  rows: Row[] = [];
  meta: ListMeta | undefined;
  chosen = new Set<number>();
  search = '';
  page = 1;
  loading = false;
  linking = false;
  message = '';
  status = '';
  #controller: AbortController | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #closing = false;

  get #app(): CmsApp {
    return this.options.app;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#controller?.abort();
    clearTimeout(this.#timer);
  }

  override firstUpdated(): void {
    const dialog = this.querySelector<HTMLDialogElement>(`#${this.uid}`);
    dialog?.showModal();
    dialog?.querySelector<HTMLElement>('input')?.focus();
  }

  async load(): Promise<void> {
    this.#controller?.abort();
    const controller = (this.#controller = new AbortController());
    this.loading = true;
    this.requestUpdate();
    try {
      const answer = await this.#app.api.call<Row[]>('GET', `${this.options.base}/candidates`, {
        query: { search: this.search || undefined, page: this.page },
        headers: this.options.headers,
        signal: controller.signal,
      });
      this.rows = answer.data;
      this.meta = answer.meta as ListMeta;
      this.message = '';
      const total = this.meta.total ?? this.rows.length;
      this.status = total ? this.#app.t('relation_candidates', {}, total) : this.#app.t('relation_no_candidates');
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return;
      this.message = this.#app.failureMessage(error);
    }
    this.loading = false;
    this.requestUpdate();
  }

  #searchTyped(value: string): void {
    this.search = value;
    this.page = 1;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.load(), SEARCH_DEBOUNCE_MS);
  }

  #go(page: number): void {
    this.page = page;
    void this.load();
  }

  async #link(): Promise<void> {
    if (!this.chosen.size || this.linking) return;
    const app = this.#app;
    this.linking = true;
    this.message = '';
    this.requestUpdate();
    try {
      const answer = await app.api.call<{ linked: number }>('POST', `${this.options.base}/link`, {
        body: { ids: [...this.chosen] },
        headers: this.options.headers,
      });
      this.linking = false;
      this.close(app.i18n!.forms(this.options.schema.messages.linked, {}, answer.data.linked));
    } catch (error) {
      this.linking = false;
      const details = error instanceof ApiError ? (error.details[this.options.field] ?? Object.values(error.details).flat()) : [];
      this.message =
        details.join(' ') ||
        (error instanceof ApiError && error.status === 403 ? app.t('relation_forbidden') : '') ||
        (error instanceof ApiError && error.message) ||
        app.t('error_network');
      this.requestUpdate();
      await this.updateComplete;
      this.querySelector<HTMLElement>(`#${this.uid} .cms-alert`)?.focus();
      // What can be linked may have changed meanwhile.
      void this.load();
    }
  }

  close(message: string | undefined): void {
    if (this.#closing) return;
    this.#closing = true;
    const dialog = this.querySelector<HTMLDialogElement>(`#${this.uid}`);
    if (dialog?.open) dialog.close();
    this.options.closed(message);
  }

  override render(): TemplateResult {
    const app = this.#app;
    const i18n = app.i18n!;
    const { schema } = this.options;
    const messages = schema.messages;
    const columns = schema.manage.list.columns;
    const id = this.uid;
    const ids = this.rows.map((row) => row.id);
    const state = pageState(this.chosen, ids);
    const meta = this.meta;
    const words = {
      yes: app.t('yes'),
      no: app.t('no'),
      date: (iso: string) => i18n.date(iso, true),
      number: (n: number) => i18n.number(n),
    };
    const labelOf = (row: Row) => cellText(row[columns[0]?.key ?? 'id'], words) || app.t('record_title', { id: row.id });
    return html`<dialog
      id=${id}
      class="cms-dialog cms-relation-dialog"
      aria-labelledby="${id}-title"
      aria-describedby="${id}-hint"
      @close=${() => this.close(undefined)}
    >
      <h2 id="${id}-title">${i18n.forms(messages.link)}</h2>
      <p id="${id}-hint" class="cms-muted">${i18n.forms(messages.linkHint)}</p>
      ${
        schema.manage.showSearch
          ? html`<p class="cms-relation-search">
            <label for="${id}-search">${i18n.forms(messages.candidateSearch)}</label>
            <input
              id="${id}-search"
              class="cms-input"
              type="search"
              .value=${this.search}
              @input=${(event: Event) => this.#searchTyped((event.target as HTMLInputElement).value)}
              @keydown=${(event: KeyboardEvent) => {
                // Enter searches at once instead of submitting anything.
                if (event.key === 'Enter') {
                  event.preventDefault();
                  clearTimeout(this.#timer);
                  void this.load();
                }
              }}
            />
          </p>`
          : nothing
      }
      <p class="cms-status" role="status">${this.status}</p>
      ${this.message ? html`<div class="cms-alert" role="alert" tabindex="-1">${this.message}</div>` : nothing}
      ${
        this.rows.length
          ? html`<div class="cms-table-wrap">
            <table class="cms-table" aria-labelledby="${id}-title" aria-busy=${this.loading ? 'true' : 'false'}>
              <thead>
                <tr>
                  <th scope="col" class="cms-check">
                    <input
                      type="checkbox"
                      aria-label=${app.t('select_all')}
                      .checked=${state === 'all'}
                      .indeterminate=${state === 'some'}
                      @change=${(event: Event) => {
                        this.chosen = toggled(this.chosen, ids, (event.target as HTMLInputElement).checked);
                        this.requestUpdate();
                      }}
                    />
                  </th>
                  ${columns.map((column) => html`<th scope="col">${column.label}</th>`)}
                </tr>
              </thead>
              <tbody @keydown=${rowKeys}>
                ${this.rows.map(
                  (row) => html`<tr aria-selected=${String(this.chosen.has(row.id))}>
                    <td class="cms-check">
                      <input
                        type="checkbox"
                        aria-label=${app.t('relation_select_row', { label: labelOf(row) })}
                        .checked=${this.chosen.has(row.id)}
                        @change=${(event: Event) => {
                          this.chosen = toggled(this.chosen, [row.id], (event.target as HTMLInputElement).checked);
                          this.requestUpdate();
                        }}
                      />
                    </td>
                    ${columns.map((column) => html`<td>${cellText(row[column.key], words)}</td>`)}
                  </tr>`,
                )}
              </tbody>
            </table>
          </div>`
          : this.loading
            ? html`<p>${app.t('loading')}</p>`
            : html`<p class="cms-empty">${app.t('relation_no_candidates')}</p>`
      }
      ${
        meta && meta.last_page > 1
          ? html`<nav class="cms-pager" aria-label=${app.t('pagination')}>
            <button type="button" class="cms-button" ?disabled=${meta.page <= 1} @click=${() => this.#go(meta.page - 1)}>${app.t('previous_page')}</button>
            <span>${app.t('relation_page', { page: meta.page, count: meta.last_page })}</span>
            <button type="button" class="cms-button" ?disabled=${meta.page >= meta.last_page} @click=${() => this.#go(meta.page + 1)}>${app.t('next_page')}</button>
          </nav>`
          : nothing
      }
      <p class="cms-dialog-buttons">
        <span class="cms-muted cms-relation-chosen">${this.chosen.size ? app.t('relation_selected', {}, this.chosen.size) : ''}</span>
        <button type="button" class="cms-button" @click=${() => this.close(undefined)}>${app.t('cancel')}</button>
        <button type="button" class="cms-button cms-primary" ?disabled=${!this.chosen.size || this.linking} @click=${() => void this.#link()}>
          ${i18n.forms(messages.linkSubmit)}
        </button>
      </p>
    </dialog>`;
  }
}

if (!customElements.get('cms-relation-picker')) customElements.define('cms-relation-picker', CmsRelationPicker);
