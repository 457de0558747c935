import { html, nothing, type TemplateResult } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import { ApiError } from '../api.ts';
import type { CmsApp } from '../app.ts';
import { LightElement } from '../element.ts';
import { targetPath } from '../router.ts';
import type {
  BulkAction,
  BulkActionResult,
  BulkResult,
  AdminActionResult,
  ListFilter,
  ListMeta,
  ListSchema,
  Row,
  RowAction,
  ToolbarAction,
} from '../types.ts';
import './list-filter.ts';
import './partial.ts';

const SEARCH_DEBOUNCE_MS = 250;

/** Row states the spec names, and the message that writes each out (never colour alone). */
const ROW_STATE_MESSAGES: Record<string, 'rowStateDeleted' | 'rowStateNegative' | 'rowStateDisabled'> = {
  deleted: 'rowStateDeleted',
  negative: 'rowStateNegative',
  disabled: 'rowStateDisabled',
};

/** The schemas of the session, by controller and locale (docs/admin-ui.md, "Calling the API"). */
const schemas = new Map<string, Promise<ListSchema>>();

type Pending = { kind: 'delete' } | { kind: 'bulk'; action: BulkAction } | { kind: 'toolbar'; action: ToolbarAction };

/**
 * A controller's list (docs/admin-ui.md, "Lists"): ListSchema plus `GET /{ctl}`. Its state (search,
 * sort, filters, page, per page) lives in the URL with the API's names, so Back and reload restore
 * it. A search is debounced and cancels the request before it; the previous rows stay, `aria-busy`,
 * while the next ones load.
 */
export class CmsList extends LightElement {
  app!: CmsApp;
  #ctl = '';
  schema: ListSchema | undefined;
  rows: Row[] = [];
  meta: ListMeta | undefined;
  error: ApiError | undefined;
  /** 403 or 404 on the schema: the whole screen is that answer. */
  refused: 403 | 404 | undefined;
  /** The controller is a singleton: it has no list, and its one record is shown instead. */
  singleton = false;
  /** The singleton's form takes the focus when it arrives (the list's heading had it). */
  #focusForm = false;
  loading = false;
  selected = new Set<number>();
  #lastClicked: number | undefined;
  message = '';
  #controller: AbortController | undefined;
  #searchTimer: ReturnType<typeof setTimeout> | undefined;
  pending: Pending | undefined;
  #onQuery = () => void this.load();

  override connectedCallback(): void {
    super.connectedCallback();
    this.app.addEventListener('query-changed', this.#onQuery);
    void this.load();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.app.removeEventListener('query-changed', this.#onQuery);
    this.#controller?.abort();
    clearTimeout(this.#searchTimer);
  }

  get ctl(): string {
    return this.#ctl;
  }

  /** Another controller in the same element (list to list): a new schema, selection and load. */
  set ctl(value: string) {
    if (value === this.#ctl) return;
    const first = this.#ctl === '';
    this.#ctl = value;
    this.schema = undefined;
    this.rows = [];
    this.meta = undefined;
    this.selected.clear();
    // What the screen before said (a form's "Deleted.", a save that closed it) is said here.
    this.message = this.app?.takeFlash() ?? '';
    if (!first && this.isConnected) void this.load();
  }

  get query(): URLSearchParams {
    return new URLSearchParams(location.search);
  }

  async #schema(): Promise<ListSchema> {
    const key = `${this.ctl}|${this.app.i18n?.locale}`;
    let schema = schemas.get(key);
    if (!schema) {
      schema = this.app.api.call<ListSchema>('GET', `/${this.ctl}/schema/list`).then((answer) => answer.data);
      schemas.set(key, schema);
      schema.catch(() => schemas.delete(key));
    }
    return schema;
  }

  /** Loads the schema (cached) and the page the URL names; a newer load cancels this one. */
  async load(): Promise<void> {
    this.#controller?.abort();
    const controller = new AbortController();
    this.#controller = controller;
    this.loading = true;
    this.error = undefined;
    this.requestUpdate();
    try {
      const ctl = this.ctl;
      const schema = await this.#schema();
      if (controller.signal.aborted || ctl !== this.ctl) return;
      if (this.schema !== schema) {
        this.schema = schema;
        this.selected.clear();
      }
      document.title = schema.title ?? '';
      const answer = await this.app.api.call<Row[]>('GET', `/${this.ctl}`, { query: this.#apiQuery(schema), signal: controller.signal });
      this.rows = answer.data;
      this.meta = answer.meta as unknown as ListMeta;
      this.refused = undefined;
      // Rows gone from the page leave the selection.
      const ids = new Set(this.rows.map((row) => row.id));
      for (const id of this.selected) if (!ids.has(id)) this.selected.delete(id);
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return;
      if (error instanceof ApiError && error.status === 404 && !this.schema && (await this.#isSingleton())) {
        this.singleton = true;
        // The heading that had the focus gives way to the record's: the focus follows.
        this.#focusForm = document.activeElement === this.querySelector('h1');
        if (this.#focusForm) void this.#focusRecordHeading();
      } else if (error instanceof ApiError && (error.status === 403 || error.status === 404) && !this.schema) this.refused = error.status;
      else this.error = error instanceof ApiError ? error : new ApiError(0, 'network', String(error));
    }
    if (this.#controller === controller) {
      this.loading = false;
      this.requestUpdate();
    }
  }

  /** The URL's list state, as the list route reads it (unknown keys are left out). */
  #apiQuery(schema: ListSchema): URLSearchParams {
    const url = this.query;
    const query = new URLSearchParams();
    for (const key of ['search', 'sort', 'dir', 'page']) {
      const value = url.get(key);
      if (value) query.set(key, value);
    }
    const perPage = url.get('per_page') ?? this.#storedPerPage();
    if (perPage && schema.perPageOptions.includes(Number(perPage))) query.set('per_page', perPage);
    for (const filter of schema.filters) {
      const value = url.get(`filter[${filter.name}]`);
      if (value) query.set(`filter[${filter.name}]`, value);
    }
    return query;
  }

  /**
   * A controller without a list schema may be a singleton (docs/admin-ui.md, "Singletons"): its
   * list schema answers 404 and `GET /{ctl}/singleton` its one record.
   */
  async #isSingleton(): Promise<boolean> {
    try {
      await this.app.api.call('GET', `/${this.ctl}/singleton`);
      return true;
    } catch {
      return false;
    }
  }

  /** The heading that had the focus gives way to the singleton form's (once its chunk is there). */
  async #focusRecordHeading(): Promise<void> {
    this.requestUpdate();
    await this.updateComplete;
    const record = this.querySelector('cms-form');
    if (!record) return;
    await (record as { updateComplete?: Promise<unknown> }).updateComplete;
    record.querySelector<HTMLElement>('h1')?.focus();
    this.#focusForm = false;
  }

  #setupKey(name: string): string {
    return `cms-admin:${this.app.me?.id}:${this.ctl}:${name}`;
  }

  /** Columns this admin hid with the list setup (`showSetup`), kept in this browser. */
  #hidden(): Set<string> {
    try {
      const stored: unknown = JSON.parse(localStorage.getItem(this.#setupKey('hidden')) ?? '[]');
      return new Set(Array.isArray(stored) ? stored.filter((key): key is string => typeof key === 'string') : []);
    } catch {
      return new Set();
    }
  }

  #setHidden(key: string, hidden: boolean): void {
    const set = this.#hidden();
    hidden ? set.add(key) : set.delete(key);
    localStorage.setItem(this.#setupKey('hidden'), JSON.stringify([...set]));
    this.requestUpdate();
  }

  #setup(schema: ListSchema): TemplateResult {
    const hidden = this.#hidden();
    return html`<details class="cms-filter cms-setup">
      <summary>${this.app.t('columns')}</summary>
      <fieldset>
        <legend class="cms-visually-hidden">${this.app.t('columns')}</legend>
        ${schema.columns.map(
          (column, index) => html`<label
            ><input
              type="checkbox"
              .checked=${!hidden.has(column.key)}
              ?disabled=${index === 0}
              @change=${(event: Event) => this.#setHidden(column.key, !(event.target as HTMLInputElement).checked)}
            />
            ${column.label}</label
          >`,
        )}
      </fieldset>
    </details>`;
  }

  #storedPerPage(): string | null {
    return localStorage.getItem(this.#setupKey('per_page'));
  }

  /** A change of the list state: into the URL, then a load. */
  #change(apply: (query: URLSearchParams) => void, options: { replace?: boolean; keepPage?: boolean } = {}): void {
    const query = this.query;
    apply(query);
    if (!options.keepPage) query.delete('page');
    this.app.setQuery(query, options.replace ?? false);
    void this.load();
  }

  #onSearch(event: InputEvent): void {
    const value = (event.target as HTMLInputElement).value;
    clearTimeout(this.#searchTimer);
    this.#searchTimer = setTimeout(() => {
      this.#change((query) => (value.trim() ? query.set('search', value) : query.delete('search')), { replace: true });
    }, SEARCH_DEBOUNCE_MS);
  }

  #sort(column: string): void {
    const query = this.query;
    const current = query.get('sort') ?? this.schema?.defaultSort?.column;
    const dir = query.get('dir') ?? this.schema?.defaultSort?.direction ?? 'asc';
    this.#change((q) => {
      q.set('sort', column);
      q.set('dir', current === column && dir === 'asc' ? 'desc' : 'asc');
    });
  }

  #setFilter(name: string, value: string): void {
    this.#change((query) => (value ? query.set(`filter[${name}]`, value) : query.delete(`filter[${name}]`)));
  }

  /** A row's checkbox changed to `on`; with Shift, every row from the last one clicked follows it. */
  #toggle(id: number, on: boolean, shift: boolean): void {
    if (shift && this.#lastClicked !== undefined) {
      const ids = this.rows.map((row) => row.id);
      const [from, to] = [ids.indexOf(this.#lastClicked), ids.indexOf(id)].sort((a, b) => a - b);
      if (from! >= 0) for (const rowId of ids.slice(from, to! + 1)) on ? this.selected.add(rowId) : this.selected.delete(rowId);
    } else if (on) this.selected.add(id);
    else this.selected.delete(id);
    this.#lastClicked = id;
    this.requestUpdate();
  }

  #toggleAll(): void {
    const all = this.rows.length > 0 && this.rows.every((row) => this.selected.has(row.id));
    for (const row of this.rows) all ? this.selected.delete(row.id) : this.selected.add(row.id);
    this.requestUpdate();
  }

  async #ask(pending: Pending): Promise<void> {
    this.pending = pending;
    this.requestUpdate();
    await this.updateComplete;
    const dialog = this.querySelector<HTMLDialogElement>('#cms-confirm');
    if (dialog && !dialog.open) dialog.showModal();
  }

  #closeDialog(): void {
    this.querySelector<HTMLDialogElement>('#cms-confirm')?.close();
    this.pending = undefined;
    this.requestUpdate();
  }

  async #run(pending: Pending): Promise<void> {
    const schema = this.schema!;
    const i18n = this.app.i18n!;
    const ids = [...this.selected];
    this.#closeDialog();
    try {
      if (pending.kind === 'delete') {
        const answer = await this.app.api.call<BulkResult>('POST', `/${this.ctl}/bulk-delete`, { body: { ids } });
        this.message = i18n.forms(schema.messages.deleted, {}, answer.data.deleted);
        this.selected.clear();
      } else if (pending.kind === 'bulk') {
        const answer = await this.app.api.call<BulkActionResult>('POST', `/${this.ctl}/bulk/${pending.action.name}`, { body: { ids } });
        this.message = answer.data.message || this.app.t('bulk_done', {}, answer.data.affected);
        this.selected.clear();
      } else {
        const answer = await this.app.api.call<AdminActionResult>('POST', `/${this.ctl}/toolbar/${pending.action.name}`, { body: {} });
        this.message = answer.data.message || this.app.t('action_done');
      }
    } catch (error) {
      this.message =
        error instanceof ApiError && error.status === 409
          ? this.app.t('bulk_conflict')
          : error instanceof ApiError && error.message
            ? error.message
            : this.app.t('error_network');
    }
    await this.load();
  }

  override render(): TemplateResult {
    const app = this.app;
    if (this.refused === 403) return app.forbidden();
    if (this.refused === 404) return app.notFound();
    if (this.singleton) {
      if (!app.loadForms()) {
        app.addEventListener(
          'forms-loaded',
          () => {
            this.requestUpdate();
            if (this.#focusForm) void this.#focusRecordHeading();
          },
          { once: true },
        );
        return html`<h1 tabindex="-1">${app.t('loading')}</h1>`;
      }
      return html`<cms-form .app=${app} .ctl=${this.ctl} .singleton=${true} .context=${'update'}></cms-form>`;
    }
    const schema = this.schema;
    // One template whatever the state, so the heading that got the focus on arrival keeps it.
    return html`<h1 tabindex="-1">${schema?.title ?? app.t('loading')}</h1>
      ${schema ? this.#body(schema) : this.error ? this.#failure() : html`<p role="status">${app.t('loading')}</p>`}`;
  }

  #body(schema: ListSchema): TemplateResult {
    const app = this.app;
    const header = schema.headerPartial
      ? html`<cms-partial .app=${app} .ctl=${this.ctl} .name=${schema.headerPartial}></cms-partial>`
      : nothing;
    const i18n = app.i18n!;
    const query = this.query;
    const search = query.get('search') ?? '';
    const filtered = search !== '' || schema.filters.some((filter) => query.get(`filter[${filter.name}]`));
    return html`${header}<div class="cms-toolbar">
        ${
          schema.showSearch
            ? html`<input
              class="cms-search"
              type="search"
              aria-label=${app.t('search')}
              placeholder=${i18n.forms(schema.messages.searchPrompt)}
              .value=${search}
              @input=${(event: InputEvent) => this.#onSearch(event)}
            />`
            : nothing
        }
        ${schema.toolbarButtons.includes('create') ? html`<a class="cms-button cms-primary" href="${app.ctlPath(this.ctl)}/create">${app.t('create')}</a>` : nothing}
        ${schema.reorder ? html`<a class="cms-button" href="${app.ctlPath(this.ctl)}/reorder">${app.t('reorder')}</a>` : nothing}
        ${schema.toolbarActions.map(
          (action) =>
            html`<button type="button" class="cms-button" @click=${() => void this.#run({ kind: 'toolbar', action })}>
              ${action.label}
            </button>`,
        )}
        ${schema.showSetup ? this.#setup(schema) : nothing}
      </div>
      ${schema.filters.length ? this.#filters(schema) : nothing}
      <p class="cms-status" role="status">${this.message}</p>
      ${this.error ? this.#failure() : nothing}
      ${this.selected.size ? this.#bulkBar(schema) : nothing}
      ${
        this.rows.length === 0 && this.meta
          ? html`<div class="cms-empty">
            <p>${i18n.forms(filtered ? schema.messages.emptySearch : schema.messages.empty)}</p>
            ${filtered ? html`<p>${i18n.forms(schema.messages.emptySearchHint)}</p>` : nothing}
          </div>`
          : this.#table(schema)
      }
      ${this.meta && this.rows.length ? this.#pager(schema, this.meta) : nothing}
      ${this.#dialog(schema)}`;
  }

  #failure(): TemplateResult {
    const error = this.error!;
    return html`<div class="cms-alert" role="alert">
      <p>${error.message || this.app.t('error_network')}</p>
      ${error.requestId ? html`<p>${this.app.t('reference', { id: error.requestId })}</p>` : nothing}
      <button type="button" class="cms-button" @click=${() => void this.load()}>${this.app.t('retry')}</button>
    </div>`;
  }

  #filters(schema: ListSchema): TemplateResult {
    const query = this.query;
    const active = schema.filters.filter((filter) => query.get(`filter[${filter.name}]`));
    return html`<div class="cms-filters" role="group" aria-label=${this.app.t('filters')}>
      ${schema.filters.map((filter) => html`<cms-list-filter .app=${this.app} .ctl=${this.ctl} .filter=${filter} .value=${query.get(`filter[${filter.name}]`) ?? ''} @filter-change=${(event: CustomEvent<string>) => this.#setFilter(filter.name, event.detail)}></cms-list-filter>`)}
      ${
        active.length
          ? html`<ul class="cms-chips" aria-label=${this.app.t('active_filters')}>
            ${active.map(
              (filter) => html`<li>
                <button type="button" class="cms-chip" aria-label=${this.app.t('remove_filter', { name: filter.label ?? filter.name })} @click=${() => this.#setFilter(filter.name, '')}>
                  ${filter.label ?? filter.name}: ${this.#filterText(filter, query.get(`filter[${filter.name}]`)!)} <span aria-hidden="true">×</span>
                </button>
              </li>`,
            )}
            <li>
              <button type="button" class="cms-button cms-link" @click=${() =>
                this.#change((q) => {
                  for (const filter of schema.filters) q.delete(`filter[${filter.name}]`);
                })}>${this.app.t('clear_filters')}</button>
            </li>
          </ul>`
          : nothing
      }
    </div>`;
  }

  #filterText(filter: ListFilter, value: string): string {
    if (filter.type === 'switch') return this.app.t(value === '1' || value === 'true' ? 'yes' : 'no');
    if (filter.type === 'daterange') {
      const [from, to] = value.split(',');
      return `${from ? this.app.i18n!.date(from, false) : '…'} – ${to ? this.app.i18n!.date(to, false) : '…'}`;
    }
    const labels = new Map((filter.options ?? []).map((option) => [option.value, option.label]));
    return value
      .split(',')
      .map((part) => labels.get(part) ?? part)
      .join(', ');
  }

  #bulkBar(schema: ListSchema): TemplateResult {
    const i18n = this.app.i18n!;
    const canDelete = schema.toolbarButtons.includes('delete');
    return html`<div class="cms-bulk" role="region" aria-label=${this.app.t('selection')}>
      <span>${i18n.forms(schema.messages.selected, {}, this.selected.size)}</span>
      ${canDelete ? html`<button type="button" class="cms-button cms-danger" @click=${() => void this.#ask({ kind: 'delete' })}>${i18n.forms(schema.messages.deleteSelected)}</button>` : nothing}
      ${schema.bulkActions.map(
        (action) =>
          html`<button type="button" class="cms-button" @click=${() => void (action.confirm ? this.#ask({ kind: 'bulk', action }) : this.#run({ kind: 'bulk', action }))}>${action.label}</button>`,
      )}
      <button type="button" class="cms-button cms-link" @click=${() => {
        this.selected.clear();
        this.requestUpdate();
      }}>${this.app.t('clear_selection')}</button>
    </div>`;
  }

  #dialog(schema: ListSchema): TemplateResult {
    const pending = this.pending;
    const i18n = this.app.i18n!;
    const text = !pending
      ? ''
      : pending.kind === 'delete'
        ? i18n.forms(schema.messages.deleteConfirm, {}, this.selected.size)
        : pending.kind === 'bulk'
          ? (pending.action.confirm ?? '')
          : '';
    const danger = pending?.kind === 'delete';
    return html`<dialog id="cms-confirm" class="cms-dialog" aria-labelledby="cms-confirm-text" @close=${() => {
      this.pending = undefined;
    }}>
      <p id="cms-confirm-text">${text}</p>
      <div class="cms-dialog-buttons">
        <button type="button" class="cms-button" @click=${() => this.#closeDialog()}>${this.app.t('cancel')}</button>
        <button type="button" class="cms-button ${danger ? 'cms-danger' : 'cms-primary'}" @click=${() => pending && void this.#run(pending)}>
          ${pending?.kind === 'delete' ? i18n.forms(schema.messages.deleteSelected) : (pending?.action.label ?? this.app.t('confirm'))}
        </button>
      </div>
    </dialog>`;
  }

  #table(schema: ListSchema): TemplateResult {
    const i18n = this.app.i18n!;
    const query = this.query;
    const sort = query.get('sort') ?? schema.defaultSort?.column;
    const dir = query.get('dir') ?? schema.defaultSort?.direction ?? 'asc';
    // The first column (the record's link) always stays.
    const hidden = schema.showSetup ? this.#hidden() : new Set<string>();
    const columns = schema.columns.filter((column, index) => index === 0 || !hidden.has(column.key));
    const allSelected = this.rows.length > 0 && this.rows.every((row) => this.selected.has(row.id));
    const someSelected = !allSelected && this.rows.some((row) => this.selected.has(row.id));
    const states = this.meta?.row_states ?? {};
    return html`<div class="cms-table-wrap">
      <table class="cms-table" aria-busy=${this.loading ? 'true' : 'false'} aria-label=${schema.title}>
        <thead>
          <tr>
            ${
              schema.showCheckboxes
                ? html`<th scope="col" class="cms-check">
                  <input type="checkbox" aria-label=${this.app.t('select_all')} .checked=${allSelected} .indeterminate=${someSelected} @change=${() => this.#toggleAll()} />
                </th>`
                : nothing
            }
            ${columns.map((column) => {
              const sorted = sort === column.key;
              const ariaSort = sorted ? (dir === 'desc' ? 'descending' : 'ascending') : 'none';
              return html`<th scope="col" aria-sort=${schema.showSorting && column.sortable ? ariaSort : nothing}>
                ${
                  schema.showSorting && column.sortable
                    ? html`<button type="button" class="cms-sort" @click=${() => this.#sort(column.key)}>
                      ${column.label}<span aria-hidden="true" class="cms-sort-mark">${sorted ? (dir === 'desc' ? '▼' : '▲') : ''}</span>
                    </button>`
                    : column.label
                }
              </th>`;
            })}
            ${schema.rowActions.length ? html`<th scope="col"><span class="cms-visually-hidden">${this.app.t('row_actions')}</span></th>` : nothing}
          </tr>
        </thead>
        <tbody @keydown=${(event: KeyboardEvent) => this.#gridKey(event)}>
          ${repeat(
            this.rows,
            (row) => row.id,
            (row) => {
              const rowStates = (states[String(row.id)] ?? []).filter((state) => ['deleted', 'negative', 'disabled'].includes(state));
              const url = schema.recordUrl ? targetPath(schema.recordUrl, this.app.boot.prefix, { ctl: this.ctl, id: row.id }) : undefined;
              return html`<tr class=${rowStates.map((state) => `cms-row-${state}`).join(' ')} aria-selected=${schema.showCheckboxes ? String(this.selected.has(row.id)) : nothing}>
                ${
                  schema.showCheckboxes
                    ? html`<td class="cms-check">
                      <input
                        type="checkbox"
                        aria-label=${this.app.t('select_row', { id: String(row.id) })}
                        .checked=${this.selected.has(row.id)}
                        @click=${(event: MouseEvent) => this.#toggle(row.id, (event.target as HTMLInputElement).checked, event.shiftKey)}
                      />
                    </td>`
                    : nothing
                }
                ${columns.map((column, index) => {
                  const text = this.#cell(row, column);
                  const content =
                    index === 0 && url
                      ? html`<a href=${url}>${text === '' ? this.app.t('open_record', { id: String(row.id) }) : text}</a>`
                      : text;
                  return html`<td>
                    ${content}
                    ${index === 0 ? rowStates.map((state) => html` <span class="cms-state">${i18n.forms(ROW_STATE_MESSAGES[state] ? schema.messages[ROW_STATE_MESSAGES[state]] : undefined)}</span>`) : nothing}
                  </td>`;
                })}
                ${schema.rowActions.length ? html`<td class="cms-row-actions">${schema.rowActions.map((action) => this.#rowAction(action, row))}</td>` : nothing}
              </tr>`;
            },
          )}
        </tbody>
      </table>
    </div>`;
  }

  /**
   * A row action (docs/admin-ui.md, "Lists"): with a `url`, a link to that target (an application
   * route: docs/admin-ui.md, "Targets"; another is not shown); without one, a button that runs the
   * record action of that name, `POST /{ctl}/{id}/actions/{name}`. Its label names the row.
   */
  #rowAction(action: RowAction, row: Row): TemplateResult | typeof nothing {
    const label = action.label ?? action.name;
    const name = this.app.t('row_action', { action: label, id: String(row.id) });
    if (action.url !== undefined) {
      const path = targetPath(action.url, this.app.boot.prefix, { ctl: this.ctl, id: row.id });
      return path ? html`<a class="cms-button cms-link" href=${path} aria-label=${name}>${label}</a>` : nothing;
    }
    return html`<button type="button" class="cms-button" aria-label=${name} @click=${() => void this.#runRecordAction(action, row)}>${label}</button>`;
  }

  async #runRecordAction(action: RowAction, row: Row): Promise<void> {
    try {
      const answer = await this.app.api.call<{ message?: string }>('POST', `/${this.ctl}/${row.id}/actions/${action.name}`, { body: {} });
      this.message = answer.data.message || this.app.t('action_done');
    } catch (error) {
      this.message =
        error instanceof ApiError && error.status === 404
          ? this.app.t('record_action_gone')
          : error instanceof ApiError && error.status === 409
            ? this.app.t('record_action_not_applicable')
            : error instanceof ApiError && error.message
              ? error.message
              : this.app.t('error_network');
    }
    await this.load();
  }

  /**
   * Moving through the rows with the keyboard (docs/admin-ui.md, "Lists"): Up and Down go to the
   * same control (checkbox or link) of the row above or below, Home and End (with Ctrl) to the
   * first and last row. Tab still walks every control, Space toggles a checkbox and Enter follows
   * a link, as natively.
   */
  #gridKey(event: KeyboardEvent): void {
    const target = event.target as HTMLElement;
    const cell = target.closest('td');
    const row = cell?.parentElement as HTMLTableRowElement | null;
    if (!cell || !row) return;
    const rows = [...row.parentElement!.children] as HTMLTableRowElement[];
    const index = rows.indexOf(row);
    const next =
      event.key === 'ArrowDown'
        ? rows[index + 1]
        : event.key === 'ArrowUp'
          ? rows[index - 1]
          : event.key === 'Home' && event.ctrlKey
            ? rows[0]
            : event.key === 'End' && event.ctrlKey
              ? rows.at(-1)
              : undefined;
    if (!next) return;
    const control = next.cells[cell.cellIndex]?.querySelector<HTMLElement>('a, input, button');
    if (!control) return;
    event.preventDefault();
    control.focus();
  }

  /** A cell as text (never HTML: docs/admin-ui.md, "Security"). */
  #cell(row: Row, column: ListSchema['columns'][number]): string {
    const value = row[column.key];
    const i18n = this.app.i18n!;
    if (value === null || value === undefined) return '';
    if (Array.isArray(value)) return value.map(String).join(', ');
    if (column.type === 'money') {
      const currency = column.currencyFrom ? String(row[column.currencyFrom] ?? '') : (column.currency ?? '');
      return currency ? i18n.money(value as string, currency) : String(value);
    }
    if (column.type === 'date' && typeof value === 'string') return i18n.date(value, false);
    if ((column.type === 'datetime' || column.type === 'timestamp') && typeof value === 'string') return i18n.date(value, true);
    if (typeof value === 'boolean') return this.app.t(value ? 'yes' : 'no');
    if (typeof value === 'number') return i18n.number(value);
    if (typeof value === 'object') return JSON.stringify(value);
    return String(value);
  }

  #pager(schema: ListSchema, meta: ListMeta): TemplateResult {
    const i18n = this.app.i18n!;
    const count = meta.total_estimated
      ? this.app.t('about_records', { count: i18n.number(meta.total) })
      : i18n.forms(schema.messages.recordCount, {}, meta.total);
    const go = (page: number) =>
      this.#change((query) => (page > 1 ? query.set('page', String(page)) : query.delete('page')), { keepPage: true });
    const perPage = String(meta.per_page);
    return html`<nav class="cms-pager" aria-label=${this.app.t('pagination')}>
      <span>${count}</span>
      <button type="button" class="cms-button" ?disabled=${meta.page <= 1} @click=${() => go(meta.page - 1)}>${this.app.t('previous_page')}</button>
      <label>
        ${this.app.t('page')}
        <input
          class="cms-page-input"
          type="text"
          inputmode="numeric"
          size="4"
          .value=${String(meta.page)}
          @change=${(event: Event) => {
            const page = Number((event.target as HTMLInputElement).value);
            if (Number.isInteger(page) && page >= 1) go(Math.min(page, meta.last_page));
          }}
        />
        ${meta.total_estimated ? nothing : this.app.t('of_pages', { count: i18n.number(meta.last_page) })}
      </label>
      <button type="button" class="cms-button" ?disabled=${meta.page >= meta.last_page} @click=${() => go(meta.page + 1)}>${this.app.t('next_page')}</button>
      <label>
        ${this.app.t('per_page')}
        <select
          @change=${(event: Event) => {
            const value = (event.target as HTMLSelectElement).value;
            localStorage.setItem(this.#setupKey('per_page'), value);
            this.#change((query) => query.set('per_page', value));
          }}
        >
          ${schema.perPageOptions.map((option) => html`<option .value=${String(option)} ?selected=${String(option) === perPage}>${i18n.number(option)}</option>`)}
        </select>
      </label>
    </nav>`;
  }
}

customElements.define('cms-list', CmsList);
