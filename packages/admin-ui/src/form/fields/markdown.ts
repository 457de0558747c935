import '@github/markdown-toolbar-element';
import { html, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import { ApiError } from '../../api.ts';
import { LightElement } from '../../element.ts';
import { safeHtml } from '../../html.ts';
import type { FieldModule, FieldView } from '../field-types.ts';
import { rovingIndex, textOf } from '../richtext-logic.ts';
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

/**
 * The `markdown` field (docs/field-types.md, "richeditor and markdown"): the source in a text area
 * with a formatting toolbar, and a Preview tab that asks `POST /markdown/preview` (docs/assets.md,
 * "Markdown preview") and shows the sanitized HTML rebuilt through the allowlists of partials
 * (`safeHtml`), never as an HTML string. Write and Preview are tabs (WAI-ARIA APG "Tabs": the
 * arrows, Home and End move and select); the toolbar is one tab stop (arrows, Home, End).
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
      this.preview = [...safeHtml(answer.data.html).childNodes];
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
    </markdown-toolbar>`;
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
          aria-describedby=${view.describedBy ?? nothing}
          aria-invalid=${view.invalid ? 'true' : nothing}
          ?readonly=${view.readOnly}
          .value=${live(textOf(view.value))}
          @input=${(event: Event) => view.set((event.target as HTMLTextAreaElement).value)}
        ></textarea>
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
