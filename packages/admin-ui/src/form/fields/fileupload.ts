import { html, nothing, type TemplateResult } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import { ApiError } from '../../api.ts';
import type { components } from '../../api/schema.d.ts';
import { LightElement } from '../../element.ts';
import type { FieldModule, FieldView } from '../field-types.ts';
import {
  acceptOf,
  allowedTypes,
  isAttachOne,
  maxBytesOf,
  maxFilesOf,
  messagesOf,
  moveId,
  nextUpload,
  newUploadId,
  percentOf,
  precheck,
  type Refusal,
  startUpload,
  type Upload,
  type UploadEvent,
} from '../files-logic.ts';
import { sendFile } from '../upload.ts';
import './fileupload.css';

type FileItem = components['schemas']['FileItem'];
/**
 * The caption dialog: the file, the button that opened it (the focus goes back there), the
 * refusal, and whether it asks about typed changes before it closes (the form's guard).
 */
type Caption = { item: FileItem; opener: HTMLElement | null; errors: string[]; saving: boolean; asking: boolean };

let serial = 0;

/** The preview size of an image field when it names none (docs/files.md, "Fields"). */
const DEFAULT_SIZE = 200;

/**
 * The `fileupload` field (docs/admin-ui.md, "File uploads"; docs/files.md). A button and a drop
 * zone choose files, checked before sending (type, size, count); each is sent on its own with its
 * progress (`upload.ts`), may be cancelled, and retried with the same `X-Upload-Id`, so a retry
 * after a lost answer never stores a second file. The files are the field's file routes
 * (`host.filesOf`): uploads under the form's session key are pending until the form's save, and
 * the form counts as changed while the list holds some. An attachOne field shows its newest file
 * (the save keeps only that one); an attachMany field is ordered by drag or the arrow keys on a
 * file's handle, each move saved at once with every id. Captions are edited in a dialog.
 */
export class CmsFileUpload extends LightElement {
  #view: FieldView | undefined;
  #items: FileItem[] = [];
  #uploads: Upload[] = [];
  readonly #files = new Map<string, File>();
  readonly #aborts = new Map<string, AbortController>();
  /** Files refused before sending, shown until dismissed. */
  #refused: { key: string; message: string }[] = [];
  /** What the list was read for (base, session key, generation): another one reads it again. */
  #listedFor = '';
  #loading = false;
  #listRun = 0;
  #loadFailed = false;
  /** An attached file removed under the session key: the removal waits for the save. */
  #removedAttached = false;
  #dragOver = false;
  #dragId: number | undefined;
  #focusHandle: number | undefined;
  /** An upload whose row held the focus before it changed. */
  #refocus: string | undefined;
  #caption: Caption | undefined;
  readonly #uid = `cms-files-${++serial}`;

  get view(): FieldView | undefined {
    return this.#view;
  }

  set view(view: FieldView) {
    this.#view = view;
    const { base } = view.host.filesOf(view.field.name);
    const listedFor = `${base}|${view.host.sessionKey}|${view.host.generation}`;
    if (listedFor !== this.#listedFor) {
      this.#listedFor = listedFor;
      this.#removedAttached = false;
      void this.#list();
    }
    this.requestUpdate();
  }

  #t(key: string, params?: Record<string, string | number>, count?: number): string {
    const app = this.#view!.host.app;
    return count === undefined ? app.t(key, params) : (app.i18n?.t(key, params, count) ?? key);
  }

  #size(bytes: number): string {
    const locale = this.#view?.host.app.i18n?.locale;
    const [value, unit] =
      bytes >= 1024 * 1024 ? [bytes / (1024 * 1024), 'megabyte'] : bytes >= 1024 ? [bytes / 1024, 'kilobyte'] : [bytes, 'byte'];
    try {
      const unitDisplay = unit === 'byte' ? 'long' : 'short';
      return new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay, maximumFractionDigits: 1 }).format(value);
    } catch {
      return `${Math.round(value)} ${unit}`;
    }
  }

  // ---- the list (docs/files.md, "Routes") ----

  async #list(): Promise<void> {
    const view = this.#view;
    if (!view) return;
    const { base, headers } = view.host.filesOf(view.field.name);
    const listedFor = this.#listedFor;
    // Only the answer of the last reading counts (an upload and a removal may each read the list).
    const run = ++this.#listRun;
    this.#loading = true;
    this.requestUpdate();
    try {
      const answer = await view.host.app.api.call<FileItem[]>('GET', base, { headers });
      if (listedFor !== this.#listedFor || run !== this.#listRun) return;
      this.#items = answer.data;
      this.#loadFailed = false;
    } catch (error) {
      if (listedFor !== this.#listedFor) return;
      // A child form in a relation dialog has an upload route and no list (docs/files.md, "Child
      // forms"): its files are the ones uploaded here.
      const childForm = 'X-Child-Session-Key' in headers && error instanceof ApiError && (error.status === 404 || error.status === 405);
      if (!childForm) {
        this.#loadFailed = true;
        view.host.announce(this.#t('files_load_failed'));
      }
    } finally {
      if (listedFor === this.#listedFor) this.#loading = false;
    }
    this.#syncPending();
    this.requestUpdate();
  }

  /** The form counts as changed while this field holds work for its save (docs/admin-ui.md, "Edits are never lost"). */
  #syncPending(): void {
    const view = this.#view;
    if (!view) return;
    view.host.setPending(view.field.name, this.#removedAttached || this.#items.some((item) => item.pending));
  }

  /**
   * The files as the save will keep them: an attachOne field with a pending upload shows that
   * one (the newest), and the file it replaces is named beside it.
   */
  #shown(): { items: FileItem[]; replaced: FileItem[] } {
    const field = this.#view!.field;
    if (!isAttachOne(field) || this.#items.length < 2) return { items: this.#items, replaced: [] };
    const newest = this.#items.filter((item) => item.pending).at(-1) ?? this.#items.at(-1)!;
    return { items: [newest], replaced: this.#items.filter((item) => item !== newest) };
  }

  // ---- uploads ----

  #choose(): void {
    this.querySelector<HTMLInputElement>('.cms-files-input')?.click();
  }

  #take(files: File[]): void {
    const view = this.#view;
    if (!view || view.readOnly || files.length === 0) return;
    const field = view.field;
    const uploading = this.#uploads.filter((upload) => upload.state === 'uploading' || upload.state === 'queued').length;
    const { accepted, refused } = precheck(files, field, this.#shown().items.length + uploading);
    const said: string[] = [];
    for (const { file, reason } of refused) {
      const message = this.#refusal(file.name, reason);
      this.#refused = [...this.#refused, { key: `r${++serial}`, message }];
      said.push(message);
    }
    for (const file of accepted) {
      const key = `u${++serial}`;
      this.#files.set(key, file);
      this.#uploads = [...this.#uploads, startUpload(key, newUploadId(), file)];
    }
    this.#pump();
    if (accepted.length) said.push(this.#t('files_uploading', { count: accepted.length }, accepted.length));
    if (said.length) view.host.announce(said.join(' '));
    this.requestUpdate();
  }

  #refusal(name: string, reason: Refusal): string {
    const field = this.#view!.field;
    switch (reason) {
      case 'type':
        return this.#t('files_refused_type', { name, types: (allowedTypes(field) ?? []).join(', ') });
      case 'size':
        return this.#t('files_refused_size', { name, size: this.#size(maxBytesOf(field)) });
      case 'empty':
        return this.#t('files_refused_empty', { name });
      case 'count': {
        const count = maxFilesOf(field);
        return this.#t('files_refused_count', { name, count }, count);
      }
    }
  }

  /** The focus is in an upload's row, whose buttons are about to change: it stays in the row, or goes to the chooser. */
  #keepFocus(key: string): void {
    if (this.querySelector(`li[data-upload="${key}"]`)?.contains(document.activeElement)) this.#refocus = key;
  }

  #step(key: string, event: UploadEvent): Upload | undefined {
    if (event.type !== 'progress') this.#keepFocus(key);
    let found: Upload | undefined;
    this.#uploads = this.#uploads.map((upload) => {
      if (upload.key !== key) return upload;
      found = nextUpload(upload, event);
      return found;
    });
    this.requestUpdate();
    return found;
  }

  /** The next waiting upload goes when none is on its way: one at a time, in the order chosen. */
  #pump(): void {
    if (this.#uploads.some((upload) => upload.state === 'uploading')) return;
    const next = this.#uploads.find((upload) => upload.state === 'queued');
    if (next) void this.#send(next.key);
  }

  async #send(key: string): Promise<void> {
    const view = this.#view;
    const file = this.#files.get(key);
    const upload = this.#step(key, { type: 'start' });
    if (!view || !file || upload?.state !== 'uploading') return;
    const abort = new AbortController();
    this.#aborts.set(key, abort);
    const { base, headers } = view.host.filesOf(view.field.name);
    try {
      const item = await sendFile<FileItem>({
        api: view.host.app.api,
        path: base,
        file,
        fileName: file.name,
        headers: { ...headers, 'X-Upload-Id': upload.uploadId },
        signal: abort.signal,
        onProgress: (loaded, total) => this.#step(key, { type: 'progress', loaded, total }),
      });
      this.#step(key, { type: 'done' });
      // Shown at once; the list read next tells what the save will keep (an attachOne field's newest).
      this.#items = [...this.#items.filter((other) => other.id !== item.id), item];
      this.#forget(key);
      view.host.announce(this.#t('files_uploaded', { name: file.name }));
      await this.#list();
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') {
        this.#step(key, { type: 'cancel' });
        view.host.announce(this.#t('files_cancelled', { name: file.name }));
      } else {
        const messages =
          error instanceof ApiError && error.status !== 0
            ? messagesOf(error.details, error.message || this.#t('files_failed_generic'))
            : [this.#t('files_network')];
        this.#step(key, { type: 'fail', messages });
        view.host.announce(`${this.#t('files_failed', { name: file.name })} ${messages.join(' ')}`);
      }
    } finally {
      this.#aborts.delete(key);
      this.#pump();
    }
  }

  #cancel(key: string): void {
    const abort = this.#aborts.get(key);
    if (abort) abort.abort();
    else if (this.#step(key, { type: 'cancel' })?.state === 'cancelled') {
      const name = this.#files.get(key)?.name ?? '';
      this.#view?.host.announce(this.#t('files_cancelled', { name }));
    }
  }

  #retry(key: string): void {
    this.#step(key, { type: 'retry' });
    this.#pump();
  }

  #forget(key: string): void {
    this.#keepFocus(key);
    this.#uploads = this.#uploads.filter((upload) => upload.key !== key);
    this.#files.delete(key);
    this.requestUpdate();
  }

  // ---- remove, reorder, captions (docs/files.md, "Routes") ----

  async #remove(item: FileItem): Promise<void> {
    const view = this.#view!;
    const { base, headers } = view.host.filesOf(view.field.name);
    try {
      await view.host.app.api.call('DELETE', `${base}/${item.id}`, { headers });
      if (!item.pending) this.#removedAttached = true;
      this.#items = this.#items.filter((other) => other.id !== item.id);
      view.host.announce(this.#t('files_removed', { name: item.file_name }));
      this.#syncPending();
      this.requestUpdate();
      this.querySelector<HTMLElement>('.cms-files-choose')?.focus();
    } catch (error) {
      view.host.announce(this.#failure(error));
      await this.#list();
    }
  }

  #failure(error: unknown): string {
    if (error instanceof ApiError && error.status !== 0)
      return messagesOf(error.details, error.message || this.#t('files_failed_generic')).join(' ');
    return this.#t('files_network');
  }

  async #move(item: FileItem, to: number): Promise<void> {
    const view = this.#view!;
    const ids = this.#items.map((other) => other.id);
    const from = ids.indexOf(item.id);
    const next = moveId(ids, item.id, to - from);
    if (next.join(',') === ids.join(',')) return;
    const byId = new Map(this.#items.map((other) => [other.id, other]));
    this.#items = next.map((id) => byId.get(id)!);
    this.#focusHandle = item.id;
    this.requestUpdate();
    view.host.announce(this.#t('files_moved', { name: item.file_name, position: next.indexOf(item.id) + 1, count: next.length }));
    const { base, headers } = view.host.filesOf(view.field.name);
    try {
      const answer = await view.host.app.api.call<FileItem[]>('POST', `${base}/reorder`, { body: { ids: next }, headers });
      // A later move may have been made meanwhile: only the last answer counts.
      if (this.#items.map((other) => other.id).join(',') === next.join(',')) this.#items = answer.data;
    } catch (error) {
      view.host.announce(`${this.#t('files_order_failed')} ${this.#failure(error)}`);
      await this.#list();
    }
    this.requestUpdate();
  }

  #handleKey(event: KeyboardEvent, item: FileItem): void {
    const at = this.#items.indexOf(item);
    const last = this.#items.length - 1;
    const to =
      event.key === 'ArrowUp'
        ? at - 1
        : event.key === 'ArrowDown'
          ? at + 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : undefined;
    if (to === undefined) return;
    event.preventDefault();
    void this.#move(item, to);
  }

  #openCaption(item: FileItem, opener: EventTarget | null): void {
    this.#caption = { item, opener: opener as HTMLElement | null, errors: [], saving: false, asking: false };
    this.requestUpdate();
  }

  #closeCaption(): void {
    const caption = this.#caption;
    this.#caption = undefined;
    const dialog = this.querySelector<HTMLDialogElement>('.cms-files-dialog');
    if (dialog?.open) dialog.close();
    this.requestUpdate();
    if (caption?.opener?.isConnected) caption.opener.focus();
    else this.querySelector<HTMLElement>('.cms-files-choose')?.focus();
  }

  /**
   * Esc or Cancel: a caption with typed changes asks first — Save, Discard changes, Stay — as
   * every form does (docs/admin-ui.md, "Edits are never lost"); an unchanged one just closes.
   */
  #cancelCaption(event?: Event): void {
    event?.preventDefault();
    const caption = this.#caption;
    const form = this.querySelector<HTMLFormElement>('.cms-files-caption-form');
    if (!caption || !form) return;
    const title = (form.elements.namedItem('title') as HTMLInputElement).value;
    const description = (form.elements.namedItem('description') as HTMLTextAreaElement).value;
    const changed = title !== (caption.item.title ?? '') || description !== (caption.item.description ?? '');
    if (!changed || caption.asking) {
      this.#closeCaption();
      return;
    }
    caption.asking = true;
    this.requestUpdate();
    void this.updateComplete.then(() => this.querySelector<HTMLElement>('.cms-files-caption-stay')?.focus());
  }

  #stayInCaption(): void {
    if (!this.#caption) return;
    this.#caption.asking = false;
    this.requestUpdate();
    void this.updateComplete.then(() => this.querySelector<HTMLInputElement>('.cms-files-caption-form input')?.focus());
  }

  async #saveCaption(event: Event): Promise<void> {
    event.preventDefault();
    const caption = this.#caption;
    const view = this.#view!;
    if (!caption || caption.saving) return;
    caption.asking = false;
    const form = this.querySelector<HTMLFormElement>('.cms-files-caption-form')!;
    const title = (form.elements.namedItem('title') as HTMLInputElement).value;
    const description = (form.elements.namedItem('description') as HTMLTextAreaElement).value;
    const { base, headers } = view.host.filesOf(view.field.name);
    caption.saving = true;
    this.requestUpdate();
    try {
      const answer = await view.host.app.api.call<FileItem>('PUT', `${base}/${caption.item.id}`, { body: { title, description }, headers });
      this.#items = this.#items.map((other) => (other.id === answer.data.id ? answer.data : other));
      view.host.announce(this.#t('files_caption_saved', { name: caption.item.file_name }));
      this.#closeCaption();
    } catch (error) {
      caption.saving = false;
      caption.errors = [this.#failure(error)];
      view.host.announce(caption.errors.join(' '));
      this.requestUpdate();
    }
  }

  /** A pending protected file is served only under the session key, which a link cannot send: fetched, then saved. */
  async #downloadPending(event: Event, item: FileItem, url: string): Promise<void> {
    event.preventDefault();
    const view = this.#view!;
    const { headers } = view.host.filesOf(view.field.name);
    try {
      const response = await fetch(url, { headers: { 'X-Requested-With': 'XMLHttpRequest', ...headers }, credentials: 'same-origin' });
      if (!response.ok) throw new ApiError(response.status, 'download', '');
      const link = document.createElement('a');
      link.href = URL.createObjectURL(await response.blob());
      link.download = item.file_name;
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    } catch {
      view.host.announce(this.#t('files_download_failed', { name: item.file_name }));
    }
  }

  // ---- drag and drop ----

  #dropFiles(event: DragEvent): void {
    if (!event.dataTransfer?.types.includes('Files')) return;
    event.preventDefault();
    this.#dragOver = false;
    this.#take([...(event.dataTransfer.files ?? [])]);
  }

  #overZone(event: DragEvent): void {
    if (!event.dataTransfer?.types.includes('Files') || this.#view?.readOnly) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    if (!this.#dragOver) {
      this.#dragOver = true;
      this.requestUpdate();
    }
  }

  #leaveZone(event: DragEvent): void {
    const zone = event.currentTarget as HTMLElement;
    if (event.relatedTarget instanceof Node && zone.contains(event.relatedTarget)) return;
    this.#dragOver = false;
    this.requestUpdate();
  }

  #dropOn(event: DragEvent, target: FileItem): void {
    const dragged = this.#items.find((item) => item.id === this.#dragId);
    this.#dragId = undefined;
    if (!dragged) return;
    event.preventDefault();
    void this.#move(dragged, this.#items.indexOf(target));
  }

  // ---- rendering ----

  protected override updated(): void {
    const dialog = this.querySelector<HTMLDialogElement>('.cms-files-dialog');
    if (this.#caption && dialog && !dialog.open) {
      dialog.showModal();
      dialog.querySelector<HTMLInputElement>('input')?.focus();
    }
    if (this.#refocus !== undefined) {
      const row = this.querySelector<HTMLElement>(`li[data-upload="${this.#refocus}"]`);
      this.#refocus = undefined;
      (row?.querySelector<HTMLElement>('button') ?? this.querySelector<HTMLElement>('.cms-files-choose'))?.focus();
    }
    if (this.#focusHandle !== undefined) {
      const handle = this.querySelector<HTMLElement>(`li[data-id="${this.#focusHandle}"] .cms-files-handle`);
      this.#focusHandle = undefined;
      if (handle && document.activeElement !== handle) handle.focus();
    }
  }

  override render(): TemplateResult | typeof nothing {
    const view = this.#view;
    if (!view) return nothing;
    const field = view.field;
    const one = isAttachOne(field);
    const editable = !view.readOnly;
    const { items, replaced } = this.#shown();
    const hintId = `${this.#uid}-hint`;
    const moveHintId = `${this.#uid}-move`;
    const types = allowedTypes(field);
    const maxFiles = maxFilesOf(field);
    const prompt = field.prompt || (one ? this.#t('files_choose_one') : this.#t('files_choose_many'));
    const hints = [
      types ? this.#t('files_types', { types: types.join(', ') }) : '',
      this.#t('files_max_size', { size: this.#size(maxBytesOf(field)) }),
      one ? this.#t('files_replaces_hint') : this.#t('files_max_files', { count: maxFiles }, maxFiles),
    ].filter(Boolean);
    return html`<div class="cms-files ${one ? 'cms-files-one' : 'cms-files-many'}">
      ${
        editable
          ? html`<div
              class="cms-files-drop ${this.#dragOver ? 'cms-files-over' : ''}"
              @dragover=${(event: DragEvent) => this.#overZone(event)}
              @dragleave=${(event: DragEvent) => this.#leaveZone(event)}
              @drop=${(event: DragEvent) => this.#dropFiles(event)}
            >
              <button
                type="button"
                class="cms-button cms-files-choose"
                id=${view.id}
                aria-describedby=${[hintId, view.describedBy].filter(Boolean).join(' ')}
                @click=${() => this.#choose()}
              >
                ${prompt}
              </button>
              <span class="cms-files-or">${one ? this.#t('files_drop_one') : this.#t('files_drop_many')}</span>
              <input
                class="cms-files-input"
                type="file"
                hidden
                tabindex="-1"
                accept=${acceptOf(field) ?? nothing}
                ?multiple=${!one}
                @change=${(event: Event) => {
                  const input = event.target as HTMLInputElement;
                  this.#take([...(input.files ?? [])]);
                  input.value = '';
                }}
              />
              <p class="cms-files-hint" id=${hintId}>${hints.join(' · ')}</p>
            </div>`
          : nothing
      }
      ${this.#loadFailed ? html`<p class="cms-files-error" role="alert">${this.#t('files_load_failed')} <button type="button" class="cms-button" @click=${() => void this.#list()}>${this.#t('retry')}</button></p>` : nothing}
      ${
        items.length === 0 && !this.#loading && !this.#loadFailed && this.#uploads.length === 0
          ? html`<p class="cms-files-empty cms-muted" id=${editable ? nothing : view.id}>${this.#t('files_empty')}</p>`
          : nothing
      }
      ${editable && !one && items.length > 1 ? html`<span id=${moveHintId} hidden>${this.#t('files_move_hint')}</span>` : nothing}
      <ul class="cms-files-list" aria-label=${this.#t('files_list', { label: field.label ?? field.name })} aria-busy=${this.#loading ? 'true' : 'false'}>
        ${repeat(
          items,
          (item) => item.id,
          (item) => this.#item(item, editable && !one && items.length > 1, moveHintId),
        )}
        ${repeat(
          this.#uploads,
          (upload) => upload.key,
          (upload) => this.#upload(upload),
        )}
      </ul>
      ${replaced.length ? html`<p class="cms-files-note">${this.#t('files_replaces', { name: replaced.map((item) => item.file_name).join(', ') })}</p>` : nothing}
      ${
        this.#refused.length
          ? html`<ul class="cms-files-refused">
              ${this.#refused.map(
                (refusal) => html`<li>
                  <span>${refusal.message}</span>
                  <button
                    type="button"
                    class="cms-button"
                    @click=${() => {
                      this.#refused = this.#refused.filter((other) => other !== refusal);
                      this.requestUpdate();
                      this.querySelector<HTMLElement>('.cms-files-choose')?.focus();
                    }}
                  >
                    ${this.#t('files_dismiss')}
                  </button>
                </li>`,
              )}
            </ul>`
          : nothing
      }
      ${this.#caption ? this.#captionDialog(this.#caption) : nothing}
    </div>`;
  }

  #preview(item: FileItem): TemplateResult | typeof nothing {
    const view = this.#view!;
    const field = view.field;
    if (field.mode !== 'image') return nothing;
    const width = field.imageWidth ?? DEFAULT_SIZE;
    const height = field.imageHeight ?? DEFAULT_SIZE;
    let src = item.thumb_url;
    if (!src && field.protected && !item.pending && item.content_type.startsWith('image/')) {
      const { base } = view.host.filesOf(field.name);
      src = `${view.host.app.api.boot.apiBase}${base}/${item.id}/thumb?width=${width}&height=${height}`;
    }
    if (!src) return html`<span class="cms-files-noimage" aria-hidden="true"></span>`;
    // The name beside it says what it is: the picture itself is decoration.
    return html`<img class="cms-files-thumb" src=${src} width=${width} height=${height} alt="" loading="lazy" decoding="async" />`;
  }

  #item(item: FileItem, movable: boolean, moveHintId: string): TemplateResult {
    const view = this.#view!;
    const field = view.field;
    const editable = !view.readOnly;
    const name = item.file_name;
    const { base } = view.host.filesOf(field.name);
    const download = field.protected ? `${view.host.app.api.boot.apiBase}${base}/${item.id}/download` : undefined;
    const open = !field.protected && item.url && item.content_type.startsWith('image/') ? item.url : undefined;
    return html`<li
      class="cms-files-item ${this.#dragId === item.id ? 'cms-files-dragging' : ''}"
      data-id=${item.id}
      draggable=${movable ? 'true' : nothing}
      @dragstart=${
        movable
          ? (event: DragEvent) => {
              this.#dragId = item.id;
              event.dataTransfer?.setData('text/plain', String(item.id));
              if (event.dataTransfer) event.dataTransfer.effectAllowed = 'move';
              this.requestUpdate();
            }
          : nothing
      }
      @dragend=${() => {
        this.#dragId = undefined;
        this.requestUpdate();
      }}
      @dragover=${(event: DragEvent) => {
        if (this.#dragId !== undefined) event.preventDefault();
      }}
      @drop=${(event: DragEvent) => this.#dropOn(event, item)}
    >
      ${
        movable
          ? html`<button
              type="button"
              class="cms-button cms-files-handle"
              aria-label=${this.#t('files_move', { name })}
              aria-describedby=${moveHintId}
              @keydown=${(event: KeyboardEvent) => this.#handleKey(event, item)}
            >
              <span aria-hidden="true">⇅</span>
            </button>`
          : nothing
      }
      ${this.#preview(item)}
      <div class="cms-files-meta">
        <span class="cms-files-name">${name}</span>
        <span class="cms-files-size">${this.#size(item.file_size)}</span>
        ${item.pending ? html`<span class="cms-files-badge">${this.#t('files_pending')}</span>` : nothing}
        ${
          field.useCaption && (item.title || item.description)
            ? html`<span class="cms-files-caption">${item.title}${item.title && item.description ? ' — ' : ''}${item.description}</span>`
            : nothing
        }
      </div>
      <div class="cms-files-actions">
        ${
          download
            ? html`<a
                class="cms-button cms-files-download"
                href=${download}
                download=${name}
                aria-label=${this.#t('files_download', { name })}
                @click=${item.pending ? (event: Event) => void this.#downloadPending(event, item, download) : nothing}
                >${this.#t('files_download_short')}</a
              >`
            : open
              ? html`<a class="cms-button cms-files-open" href=${open} target="_blank" rel="noopener" aria-label=${this.#t('files_open', { name })}
                  >${this.#t('files_open_short')}</a
                >`
              : nothing
        }
        ${
          editable && field.useCaption
            ? html`<button
                type="button"
                class="cms-button cms-files-edit"
                aria-haspopup="dialog"
                aria-label=${this.#t('files_caption_edit', { name })}
                @click=${(event: Event) => this.#openCaption(item, event.currentTarget)}
              >
                ${this.#t('files_caption_edit_short')}
              </button>`
            : nothing
        }
        ${
          editable
            ? html`<button type="button" class="cms-button cms-files-remove" aria-label=${this.#t('files_remove', { name })} @click=${() => void this.#remove(item)}>
                ${this.#t('files_remove_short')}
              </button>`
            : nothing
        }
      </div>
    </li>`;
  }

  #upload(upload: Upload): TemplateResult {
    const name = upload.name;
    const percent = percentOf(upload);
    const failed = upload.state === 'failed' || upload.state === 'cancelled';
    return html`<li class="cms-files-item cms-files-upload ${failed ? 'cms-files-failed' : ''}" data-upload=${upload.key}>
      <div class="cms-files-meta">
        <span class="cms-files-name">${name}</span>
        <span class="cms-files-size">${this.#size(upload.size)}</span>
        ${
          upload.state === 'uploading'
            ? html`<span class="cms-files-progress">
                <progress max="100" .value=${percent} aria-label=${this.#t('files_progress_label', { name })}></progress>
                <span>${this.#t('files_percent', { percent })}</span>
              </span>`
            : nothing
        }
        ${upload.state === 'queued' ? html`<span class="cms-files-status">${this.#t('files_queued')}</span>` : nothing}
        ${upload.state === 'cancelled' ? html`<span class="cms-files-status">${this.#t('files_cancelled_state')}</span>` : nothing}
        ${upload.state === 'failed' ? html`<span class="cms-files-error">${upload.messages.join(' ')}</span>` : nothing}
      </div>
      <div class="cms-files-actions">
        ${
          upload.state === 'uploading' || upload.state === 'queued'
            ? html`<button type="button" class="cms-button cms-files-cancel" aria-label=${this.#t('files_cancel', { name })} @click=${() => this.#cancel(upload.key)}>
                ${this.#t('files_cancel_short')}
              </button>`
            : nothing
        }
        ${
          failed
            ? html`<button type="button" class="cms-button cms-files-retry" aria-label=${this.#t('files_retry', { name })} @click=${() => this.#retry(upload.key)}>
                  ${this.#t('files_retry_short')}
                </button>
                <button
                  type="button"
                  class="cms-button"
                  aria-label=${this.#t('files_dismiss_upload', { name })}
                  @click=${() => this.#forget(upload.key)}
                >
                  ${this.#t('files_dismiss')}
                </button>`
            : nothing
        }
      </div>
    </li>`;
  }

  #captionDialog(caption: Caption): TemplateResult {
    const titleId = `${this.#uid}-caption`;
    const item = caption.item;
    return html`<dialog
      class="cms-dialog cms-files-dialog"
      aria-labelledby=${titleId}
      @cancel=${(event: Event) => this.#cancelCaption(event)}
      @close=${() => this.#caption && this.#closeCaption()}
    >
      <form class="cms-files-caption-form" @submit=${(event: Event) => void this.#saveCaption(event)}>
        <h2 id=${titleId}>${this.#t('files_caption_title', { name: item.file_name })}</h2>
        <label class="cms-label" for="${titleId}-title">${this.#t('files_caption_field_title')}</label>
        <input class="cms-input" id="${titleId}-title" name="title" maxlength="255" .value=${item.title} />
        <label class="cms-label" for="${titleId}-description">${this.#t('files_caption_field_description')}</label>
        <textarea class="cms-input cms-textarea" id="${titleId}-description" name="description" rows="4" .value=${item.description}></textarea>
        ${caption.errors.length ? html`<p class="cms-field-error" role="alert">${caption.errors.join(' ')}</p>` : nothing}
        ${
          caption.asking
            ? html`<div class="cms-files-caption-ask" role="group" aria-labelledby="${titleId}-ask">
                <p id="${titleId}-ask"><strong>${this.#t('dialog_close_title')}</strong> ${this.#t('dialog_close_text')}</p>
                <div class="cms-dialog-buttons">
                  <button type="button" class="cms-button cms-files-caption-stay" @click=${() => this.#stayInCaption()}>${this.#t('leave_stay')}</button>
                  <button type="button" class="cms-button cms-danger" @click=${() => this.#closeCaption()}>${this.#t('leave_discard')}</button>
                  <button type="submit" class="cms-button cms-primary" ?disabled=${caption.saving}>${this.#t('leave_save')}</button>
                </div>
              </div>`
            : html`<div class="cms-dialog-buttons">
                <button type="button" class="cms-button" @click=${() => this.#cancelCaption()}>${this.#t('cancel')}</button>
                <button type="submit" class="cms-button cms-primary" ?disabled=${caption.saving}>${this.#t('files_caption_save')}</button>
              </div>`
        }
      </form>
    </dialog>`;
  }
}

if (!customElements.get('cms-file-upload')) customElements.define('cms-file-upload', CmsFileUpload);

const module: FieldModule = {
  frame: 'group',
  render: (view) => html`<cms-file-upload .view=${view}></cms-file-upload>`,
};

export default module;
