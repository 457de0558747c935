import '@github/markdown-toolbar-element';
import { html, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import { ApiError } from '../../api.ts';
import { LightElement } from '../../element.ts';
import { safeHtml } from '../../html.ts';
import { contentImages, rootRelativePath } from '../../html-tree.ts';
import type { FieldModule, FieldView } from '../field-types.ts';
import { rovingIndex, textOf } from '../richtext-logic.ts';
import { IMAGE_TYPES, imageMarkdown, isImageFile, refusalOf, uploadImage } from '../markdown-upload.ts';
import './markdown.css';

type Mode = 'write' | 'preview';

/**
 * The toolbar's buttons: the style of `@github/markdown-toolbar-element` each applies (its
 * `data-md-button` names), its label, its glyph. Native buttons, so each is a real button.
 */
const BUTTONS = [
  { style: 'bold', label: 'format_bold', glyph: html`<b>B</b>` },
  { style: 'italic', label: 'format_italic', glyph: html`<i>I</i>` },
  { style: 'header-2', label: 'format_heading_2', glyph: 'H2' },
  { style: 'header-3', label: 'format_heading_3', glyph: 'H3' },
  { style: 'unordered-list', label: 'format_bullet_list', glyph: '•≡' },
  { style: 'ordered-list', label: 'format_ordered_list', glyph: '1≡' },
  { style: 'link', label: 'format_link', glyph: '[ ]( )' },
  { style: 'quote', label: 'format_quote', glyph: '❝' },
  { style: 'code', label: 'format_code', glyph: html`<code>&lt;/&gt;</code>` },
] as const;

/** An image being uploaded: its file and the part sent (undefined while unknown). */
interface Upload {
  readonly file: File;
  progress: number | undefined;
}

/**
 * The `markdown` field (docs/field-types.md, "richeditor and markdown"): the source in a text area
 * with a formatting toolbar, and a Preview tab that asks `POST /markdown/preview` (docs/assets.md,
 * "Markdown preview") and shows the sanitized HTML rebuilt through the allowlists of partials
 * (`safeHtml`), never as an HTML string. Write and Preview are tabs (WAI-ARIA APG "Tabs": the
 * arrows, Home and End move and select); the toolbar is one tab stop (arrows, Home, End).
 *
 * A field with an `uploadRoute` uploads images there: the toolbar's "Insert image" (a file
 * chooser), a pasted image and a dropped image file. Each is uploaded in turn, its progress shown,
 * and `![name](url)` goes in at the caret as a change of the field; a refusal is shown under the
 * editor. Both are announced. Root-relative images of this host load in the preview, so the
 * uploaded one shows there (docs/admin-ui.md, "Field types").
 */
class CmsMarkdown extends LightElement {
  #view: FieldView | undefined;
  mode: Mode = 'write';
  /** The preview of `previewOf`; `undefined` while none is shown. */
  preview: Node[] | undefined;
  previewOf: string | undefined;
  previewError: string | undefined;
  loading = false;
  #controller: AbortController | undefined;
  /** The toolbar's tab stop. */
  #current = 0;
  /** Images waiting to be uploaded, the first one on its way. */
  uploads: Upload[] = [];
  /** What the last refused upload said, shown under the editor; cleared by the next upload. */
  uploadErrors: string[] = [];
  #uploadController: AbortController | undefined;

  set view(view: FieldView) {
    this.#view = view;
    this.requestUpdate();
  }

  get view(): FieldView | undefined {
    return this.#view;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#controller?.abort();
    this.#uploadController?.abort();
    this.uploads = [];
  }

  #t(key: string): string {
    return this.#view?.host.app.t(key) ?? '';
  }

  #rtl(): boolean {
    return getComputedStyle(this).direction === 'rtl';
  }

  #select(mode: Mode, focus = false): void {
    this.mode = mode;
    this.requestUpdate();
    if (mode === 'preview') void this.#loadPreview();
    if (focus) void this.updateComplete.then(() => this.querySelector<HTMLElement>(`[role="tab"][data-mode="${mode}"]`)?.focus());
  }

  /** The preview of the current source; a newer request cancels the one before. */
  async #loadPreview(): Promise<void> {
    const view = this.#view;
    if (!view) return;
    const source = textOf(view.value);
    if (source === this.previewOf && (this.preview || this.loading)) return;
    this.#controller?.abort();
    this.previewOf = source;
    this.previewError = undefined;
    if (source.trim() === '') {
      this.preview = [];
      this.loading = false;
      this.requestUpdate();
      return;
    }
    const controller = new AbortController();
    this.#controller = controller;
    this.loading = true;
    this.requestUpdate();
    try {
      const answer = await view.host.app.api.call<{ html: string }>('POST', '/markdown/preview', {
        body: { markdown: source },
        signal: controller.signal,
      });
      // Root-relative images of this host load (an uploaded one), never from the admin's API.
      this.preview = [...safeHtml(answer.data.html, contentImages(view.host.app.api.boot.prefix, location.hostname)).childNodes];
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return;
      this.preview = undefined;
      this.previewOf = undefined;
      this.previewError = error instanceof ApiError ? (error.details.markdown?.[0] ?? error.message) : String(error);
    }
    if (this.#controller === controller) {
      this.loading = false;
      this.requestUpdate();
    }
  }

  protected override updated(): void {
    // The value changed from outside while the preview shows (a restored draft): a new preview.
    if (this.mode === 'preview' && this.previewOf !== undefined && this.previewOf !== textOf(this.#view?.value)) void this.#loadPreview();
  }

  #onTabKey(event: KeyboardEvent): void {
    const modes: Mode[] = ['write', 'preview'];
    const next = rovingIndex(event.key, modes.indexOf(this.mode), modes.length, this.#rtl());
    if (next === undefined) return;
    event.preventDefault();
    this.#select(modes[next]!, true);
  }

  #onToolbarKey(event: KeyboardEvent): void {
    const buttons = [...this.querySelectorAll<HTMLElement>('.cms-markdown__toolbar button')];
    const index = buttons.indexOf(event.target as HTMLElement);
    if (index < 0) return;
    const next = rovingIndex(event.key, index, buttons.length, this.#rtl());
    if (next === undefined) return;
    event.preventDefault();
    this.#current = next;
    this.requestUpdate();
    buttons[next]!.focus();
  }

  /** The field's upload route, when it has one, is a path of this origin (as start-up checked) and the field is editable. */
  #uploadRoute(): string | undefined {
    const view = this.#view;
    const route = view?.field.uploadRoute;
    return view && !view.readOnly && typeof route === 'string' && rootRelativePath(route) !== undefined ? route : undefined;
  }

  /** Queues the images among `files`; anything else is refused here, before any request. */
  #upload(files: readonly File[]): void {
    const view = this.#view;
    if (!view || files.length === 0) return;
    const images = files.filter(isImageFile);
    const others = files.filter((file) => !isImageFile(file));
    this.uploadErrors = others.map((file) => `${file.name}: ${this.#t('markdown_not_image')}`);
    if (others.length > 0) view.host.announce(this.uploadErrors.join(' '));
    const idle = this.uploads.length === 0;
    this.uploads.push(...images.map((file) => ({ file, progress: undefined })));
    this.requestUpdate();
    if (idle && images.length > 0) void this.#drain();
  }

  /** Uploads the queued images one after the other, each inserted when its answer comes. */
  async #drain(): Promise<void> {
    while (this.uploads.length > 0) {
      const view = this.#view;
      const route = this.#uploadRoute();
      const upload = this.uploads[0]!;
      if (!view || !route) {
        this.uploads = [];
        break;
      }
      const app = view.host.app;
      const controller = new AbortController();
      this.#uploadController = controller;
      view.host.announce(app.t('markdown_uploading', { name: upload.file.name }));
      try {
        const url = await uploadImage(
          app.api,
          route,
          upload.file,
          (part) => {
            upload.progress = part;
            this.requestUpdate();
          },
          controller.signal,
        );
        this.#insert(imageMarkdown(upload.file.name, url));
        view.host.announce(app.t('markdown_image_inserted', { name: upload.file.name }));
      } catch (error) {
        if (error instanceof DOMException && error.name === 'AbortError') return;
        const reason = error instanceof ApiError ? this.#reason(error) : String(error);
        const message = app.t('markdown_upload_failed', { name: upload.file.name, reason });
        this.uploadErrors = [...this.uploadErrors, message];
        view.host.announce(message);
      }
      this.uploads.shift();
      this.requestUpdate();
    }
  }

  #reason(error: ApiError): string {
    const refusal = refusalOf(error);
    if (refusal.length > 0) return refusal.join(' ');
    if (error.status === 0) return this.#t('error_network');
    return error.message || this.#t('markdown_upload_refused');
  }

  /** Puts `text` at the caret (in place of the selection) as the admin's own change of the field. */
  #insert(text: string): void {
    const view = this.#view;
    const area = this.querySelector<HTMLTextAreaElement>('.cms-markdown__source');
    if (!view || !area) return;
    area.setRangeText(text, area.selectionStart, area.selectionEnd, 'end');
    view.set(area.value);
  }

  #onPaste(event: ClipboardEvent): void {
    const files = [...(event.clipboardData?.files ?? [])];
    if (!this.#uploadRoute() || files.length === 0) return;
    event.preventDefault();
    this.#upload(files);
  }

  #onDragOver(event: DragEvent): void {
    if (!this.#uploadRoute() || !event.dataTransfer?.types.includes('Files')) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
  }

  #onDrop(event: DragEvent): void {
    const files = [...(event.dataTransfer?.files ?? [])];
    if (!this.#uploadRoute() || files.length === 0) return;
    // A file dropped on the page would otherwise be opened by the browser, leaving the form.
    event.preventDefault();
    this.querySelector<HTMLTextAreaElement>('.cms-markdown__source')?.focus();
    this.#upload(files);
  }

  #onChosen(event: Event): void {
    const input = event.target as HTMLInputElement;
    const files = [...(input.files ?? [])];
    input.value = '';
    this.#upload(files);
  }

  /** The upload's state under the editor: the image on its way with its progress, and refusals. */
  #uploadStatus(view: FieldView): TemplateResult | typeof nothing {
    const current = this.uploads[0];
    if (!current && this.uploadErrors.length === 0) return nothing;
    return html`<div class="cms-markdown__uploads">
      ${
        current
          ? html`<p class="cms-markdown__uploading">
            <span id=${`${view.id}-upload-status`}>${this.#view?.host.app.t('markdown_uploading', { name: current.file.name })}</span>
            <progress
              max="1"
              value=${current.progress ?? nothing}
              aria-labelledby=${`${view.id}-upload-status`}
            ></progress>
          </p>`
          : nothing
      }
      ${
        this.uploadErrors.length > 0
          ? html`<ul class="cms-markdown__upload-errors" id=${`${view.id}-upload-errors`}>
            ${this.uploadErrors.map((message) => html`<li>${message}</li>`)}
          </ul>`
          : nothing
      }
    </div>`;
  }

  #toolbar(view: FieldView): TemplateResult {
    return html`<markdown-toolbar
      class="cms-markdown__toolbar"
      for=${view.id}
      data-no-focus
      role="toolbar"
      aria-label=${this.#t('format_toolbar')}
      aria-controls=${view.id}
      @keydown=${(event: KeyboardEvent) => this.#onToolbarKey(event)}
    >
      ${BUTTONS.map((button, index) => {
        const label = this.#t(button.label);
        return html`<button
          type="button"
          class="cms-markdown__tool"
          data-md-button=${button.style}
          tabindex=${index === this.#current ? '0' : '-1'}
          aria-label=${label}
          title=${label}
          @keydown=${(event: KeyboardEvent) => {
            // The native button clicks on Enter and Space; the toolbar's own key handler would apply the style twice.
            if (event.key === 'Enter' || event.key === ' ') event.stopPropagation();
          }}
          @click=${() => {
            this.#current = index;
          }}
        >
          ${
            // A letter pair ("H2") is drawn by CSS: the button's name is its label, not those letters.
            typeof button.glyph === 'string'
              ? html`<span class="cms-markdown__glyph" data-glyph=${button.glyph} aria-hidden="true"></span>`
              : html`<span aria-hidden="true">${button.glyph}</span>`
          }
        </button>`;
      })}
      ${this.#imageButton(view)}
    </markdown-toolbar>`;
  }

  /** "Insert image": opens the file chooser of images (Enter and Space click a native button). */
  #imageButton(view: FieldView): TemplateResult | typeof nothing {
    if (!this.#uploadRoute()) return nothing;
    const index = BUTTONS.length;
    const label = this.#t('markdown_insert_image');
    return html`<button
        type="button"
        class="cms-markdown__tool cms-markdown__image"
        tabindex=${index === this.#current ? '0' : '-1'}
        aria-label=${label}
        title=${label}
        aria-describedby=${this.uploads.length > 0 ? `${view.id}-upload-status` : nothing}
        @keydown=${(event: KeyboardEvent) => {
          if (event.key === 'Enter' || event.key === ' ') event.stopPropagation();
        }}
        @click=${() => {
          this.#current = index;
          this.querySelector<HTMLInputElement>('.cms-markdown__file')?.click();
        }}
      >
        <svg class="cms-markdown__icon" viewBox="0 0 20 20" aria-hidden="true" focusable="false">
          <rect x="2.5" y="3.5" width="15" height="13" rx="1.5" fill="none" stroke="currentColor" stroke-width="1.5"></rect>
          <circle cx="7" cy="8" r="1.6" fill="currentColor"></circle>
          <path d="M3.5 15 8.5 10.5l3 2.5 2.5-2 3 3.5" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linejoin="round"></path>
        </svg>
      </button>
      <input
        type="file"
        class="cms-markdown__file"
        accept=${IMAGE_TYPES.join(',')}
        multiple
        hidden
        tabindex="-1"
        aria-hidden="true"
        @change=${(event: Event) => this.#onChosen(event)}
      />`;
  }

  #previewBody(): TemplateResult | Node[] {
    if (this.previewError !== undefined)
      return html`<div class="cms-markdown__failed" role="alert">
        <p>${this.#t('markdown_preview_failed')} ${this.previewError}</p>
        <button type="button" class="cms-button" @click=${() => void this.#loadPreview()}>${this.#t('retry')}</button>
      </div>`;
    if (this.loading || !this.preview) return html`<p class="cms-markdown__status">${this.#t('loading')}</p>`;
    if (this.preview.length === 0) return html`<p class="cms-markdown__status">${this.#t('markdown_preview_empty')}</p>`;
    return this.preview;
  }

  override render(): TemplateResult | typeof nothing {
    const view = this.#view;
    if (!view) return nothing;
    const id = view.id;
    const describedBy = [view.describedBy, this.uploadErrors.length > 0 ? `${id}-upload-errors` : undefined].filter(Boolean).join(' ');
    const tab = (mode: Mode, label: string) =>
      html`<button
        type="button"
        role="tab"
        class="cms-markdown__tab"
        id=${`${id}-tab-${mode}`}
        data-mode=${mode}
        aria-selected=${this.mode === mode ? 'true' : 'false'}
        aria-controls=${`${id}-panel-${mode}`}
        tabindex=${this.mode === mode ? '0' : '-1'}
        @click=${() => this.#select(mode)}
      >
        ${label}
      </button>`;
    return html`<div class="cms-markdown" ?data-invalid=${view.invalid}>
      <div class="cms-markdown__tabs" role="tablist" aria-label=${this.#t('markdown_modes')} @keydown=${(event: KeyboardEvent) => this.#onTabKey(event)}>
        ${tab('write', this.#t('markdown_write'))} ${tab('preview', this.#t('markdown_preview'))}
      </div>
      <div role="tabpanel" class="cms-markdown__panel" id=${`${id}-panel-write`} aria-labelledby=${`${id}-tab-write`} ?hidden=${this.mode !== 'write'}>
        ${view.readOnly ? nothing : this.#toolbar(view)}
        <textarea
          class="cms-markdown__source"
          id=${id}
          rows="12"
          aria-describedby=${describedBy || nothing}
          aria-invalid=${view.invalid ? 'true' : nothing}
          ?readonly=${view.readOnly}
          .value=${live(textOf(view.value))}
          @input=${(event: Event) => view.set((event.target as HTMLTextAreaElement).value)}
          @paste=${(event: ClipboardEvent) => this.#onPaste(event)}
          @dragover=${(event: DragEvent) => this.#onDragOver(event)}
          @drop=${(event: DragEvent) => this.#onDrop(event)}
        ></textarea>
        ${this.#uploadStatus(view)}
      </div>
      <div
        role="tabpanel"
        class="cms-markdown__panel cms-markdown__preview"
        id=${`${id}-panel-preview`}
        aria-labelledby=${`${id}-tab-preview`}
        aria-busy=${this.loading ? 'true' : 'false'}
        tabindex="0"
        ?hidden=${this.mode !== 'preview'}
      >
        ${this.mode === 'preview' ? this.#previewBody() : nothing}
      </div>
    </div>`;
  }
}

if (!customElements.get('cms-markdown')) customElements.define('cms-markdown', CmsMarkdown);

const module: FieldModule = {
  render: (view) => html`<cms-markdown .view=${view}></cms-markdown>`,
  empty: () => '',
};

export default module;
