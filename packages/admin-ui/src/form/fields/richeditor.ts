import { html, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import { LightElement } from '../../element.ts';
import type { FieldModule, FieldView } from '../field-types.ts';
import { textOf } from '../richtext-logic.ts';
import './richeditor.css';

/** The editor's chunk (Tiptap), asked for once, by the first rich-text field of the session. */
let editorChunk: Promise<unknown> | undefined;
const loadEditor = () => {
  editorChunk ??= import('../rich-editor.ts');
  // A failed load may be tried again by the next form.
  editorChunk.catch(() => (editorChunk = undefined));
  return editorChunk;
};

/**
 * The `richeditor` field (docs/field-types.md, "richeditor and markdown"). This module is small: the
 * form imports it only for a form with such a field, and it imports the editor (`rich-editor.ts`,
 * Tiptap, its own chunk) with `import()`. Until the chunk is there, the value is shown in a disabled
 * text area; if it cannot be loaded, the HTML is edited as text, which the server sanitizes on save
 * like anything else.
 */
class CmsRichText extends LightElement {
  #view: FieldView | undefined;
  state: 'loading' | 'ready' | 'failed' = 'loading';

  set view(view: FieldView) {
    this.#view = view;
    this.requestUpdate();
  }

  get view(): FieldView | undefined {
    return this.#view;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.state === 'ready') return;
    loadEditor().then(
      () => {
        this.state = 'ready';
        this.requestUpdate();
      },
      () => {
        this.state = 'failed';
        this.requestUpdate();
      },
    );
  }

  override render(): TemplateResult | typeof nothing {
    const view = this.#view;
    if (!view) return nothing;
    if (this.state === 'ready') return html`<cms-rich-editor .view=${view}></cms-rich-editor>`;
    const failed = this.state === 'failed';
    return html`${failed ? html`<p class="cms-richtext-note">${view.host.app.t('rich_editor_failed')}</p>` : nothing}
      <textarea
        class="cms-richtext-source"
        id=${view.id}
        rows="10"
        spellcheck="false"
        aria-describedby=${view.describedBy ?? nothing}
        aria-invalid=${view.invalid ? 'true' : nothing}
        aria-busy=${failed ? nothing : 'true'}
        ?disabled=${!failed}
        ?readonly=${view.readOnly}
        .value=${live(textOf(view.value))}
        @input=${(event: InputEvent) => view.set((event.target as HTMLTextAreaElement).value)}
      ></textarea>`;
  }
}

if (!customElements.get('cms-richtext')) customElements.define('cms-richtext', CmsRichText);

const module: FieldModule = {
  render: (view) => html`<cms-richtext .view=${view}></cms-richtext>`,
  empty: () => '',
};

export default module;
