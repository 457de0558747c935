import { Editor, Extension } from '@tiptap/core';
import StarterKit from '@tiptap/starter-kit';
import { html, nothing, type TemplateResult } from 'lit';
import { LightElement } from '../element.ts';
import type { FieldView } from './field-types.ts';
import { editorHtml, linkHref, rovingIndex, textOf } from './richtext-logic.ts';
import './rich-editor.css';

/** A button of the toolbar: what it says, whether it is on where the cursor is, what it does. */
interface Tool {
  readonly key: string;
  readonly label: string;
  readonly glyph: TemplateResult | string;
  /** Toggles (marks, blocks) have a pressed state; actions (undo, redo) do not. */
  readonly active?: (editor: Editor) => boolean;
  readonly enabled?: (editor: Editor) => boolean;
  readonly run: (editor: Editor) => void;
}

/** A chain link, drawn (the toolbar's only picture; the other buttons are letters). */
const LINK_GLYPH = html`<svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
  <path
    fill="none"
    stroke="currentColor"
    stroke-width="2"
    stroke-linecap="round"
    d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1"
  />
</svg>`;

/**
 * The `richeditor` field's editor (docs/field-types.md, "richeditor and markdown"): Tiptap in its
 * own chunk, which only a form with such a field loads. The value is the HTML string; the server
 * sanitizes it on save and says in `meta.notices` when it removed something.
 *
 * The editor never holds the truth: it shows `view.value`, and reports a user's edit through
 * `view.set` — never its own start, never a value that came from outside (a restored draft, a
 * merge), which replaces the content without touching the undo history.
 *
 * Keyboard (docs/admin-ui.md, "Field types"): Tiptap's shortcuts (Ctrl+B, Ctrl+I, Ctrl+Alt+2,
 * Ctrl+Shift+8 …), Ctrl+K for the link box, and Escape or Alt+F10 to the toolbar, whose buttons
 * are one tab stop (arrows, Home, End) — Tab inside a list indents, so Escape is the way out.
 */
export class CmsRichEditor extends LightElement {
  #view: FieldView | undefined;
  #editor: Editor | undefined;
  /** The HTML the editor shows, as the field's value. */
  #known = '';
  /**
   * The last `view.value` taken in. Only a change of it comes from outside: the editor renders
   * again on its own (the toolbar follows the cursor) with a view from before its last edit was
   * reported, whose value is older than what it shows and must not replace it.
   */
  #seen = '';
  #attributesKey = '';
  /** The toolbar's tab stop. */
  #current = 0;
  linkOpen = false;
  linkError = false;

  get view(): FieldView | undefined {
    return this.#view;
  }

  set view(view: FieldView) {
    this.#view = view;
    this.requestUpdate();
  }

  #t(key: string): string {
    return this.#view?.host.app.t(key) ?? '';
  }

  #tools(): Tool[] {
    const heading = (level: 2 | 3) => ({
      active: (editor: Editor) => editor.isActive('heading', { level }),
      run: (editor: Editor) => editor.chain().focus().toggleHeading({ level }).run(),
    });
    return [
      {
        key: 'bold',
        label: this.#t('format_bold'),
        glyph: html`<b>B</b>`,
        active: (e) => e.isActive('bold'),
        run: (e) => e.chain().focus().toggleBold().run(),
      },
      {
        key: 'italic',
        label: this.#t('format_italic'),
        glyph: html`<i>I</i>`,
        active: (e) => e.isActive('italic'),
        run: (e) => e.chain().focus().toggleItalic().run(),
      },
      { key: 'h2', label: this.#t('format_heading_2'), glyph: 'H2', ...heading(2) },
      { key: 'h3', label: this.#t('format_heading_3'), glyph: 'H3', ...heading(3) },
      {
        key: 'bullet',
        label: this.#t('format_bullet_list'),
        glyph: '•≡',
        active: (e) => e.isActive('bulletList'),
        run: (e) => e.chain().focus().toggleBulletList().run(),
      },
      {
        key: 'ordered',
        label: this.#t('format_ordered_list'),
        glyph: '1≡',
        active: (e) => e.isActive('orderedList'),
        run: (e) => e.chain().focus().toggleOrderedList().run(),
      },
      { key: 'link', label: this.#t('format_link'), glyph: LINK_GLYPH, active: (e) => e.isActive('link'), run: () => this.openLink() },
      {
        key: 'quote',
        label: this.#t('format_quote'),
        glyph: '❝',
        active: (e) => e.isActive('blockquote'),
        run: (e) => e.chain().focus().toggleBlockquote().run(),
      },
      {
        key: 'code',
        label: this.#t('format_code'),
        glyph: html`<code>&lt;/&gt;</code>`,
        active: (e) => e.isActive('code'),
        run: (e) => e.chain().focus().toggleCode().run(),
      },
      {
        key: 'code-block',
        label: this.#t('format_code_block'),
        glyph: html`<code>{ }</code>`,
        active: (e) => e.isActive('codeBlock'),
        run: (e) => e.chain().focus().toggleCodeBlock().run(),
      },
      {
        key: 'undo',
        label: this.#t('format_undo'),
        glyph: '↶',
        enabled: (e) => e.can().undo(),
        run: (e) => e.chain().focus().undo().run(),
      },
      {
        key: 'redo',
        label: this.#t('format_redo'),
        glyph: '↷',
        enabled: (e) => e.can().redo(),
        run: (e) => e.chain().focus().redo().run(),
      },
    ];
  }

  /** The contenteditable's attributes: named by the form's label, described by its comment and error. */
  #attributes(): Record<string, string> {
    const view = this.#view;
    if (!view) return {};
    const attributes: Record<string, string> = {
      id: view.id,
      'aria-labelledby': `${view.id}-label`,
      'aria-multiline': 'true',
      class: 'cms-rich-editor__content',
    };
    if (view.describedBy) attributes['aria-describedby'] = view.describedBy;
    if (view.invalid) attributes['aria-invalid'] = 'true';
    // Read-only: still a tab stop, so the text can be reached and read.
    if (view.readOnly) Object.assign(attributes, { 'aria-readonly': 'true', tabindex: '0' });
    return attributes;
  }

  protected override firstUpdated(): void {
    this.#mount();
  }

  /** The Tiptap editor, in the surface the template left empty for it. */
  #mount(): void {
    const view = this.#view;
    const surface = this.querySelector<HTMLElement>('.cms-rich-editor__surface');
    if (!view || !surface || this.#editor) return;
    surface.replaceChildren();
    this.#known = textOf(view.value);
    this.#seen = this.#known;
    this.#editor = new Editor({
      element: surface,
      content: this.#known,
      editable: !view.readOnly,
      // The page's CSP allows no inline `<style>`: rich-editor.css carries Tiptap's few rules.
      injectCSS: false,
      extensions: [
        StarterKit.configure({
          heading: { levels: [2, 3, 4] },
          link: { openOnClick: false, autolink: false, defaultProtocol: 'https', HTMLAttributes: { target: null, rel: null } },
        }),
        Extension.create({
          name: 'cmsKeys',
          addKeyboardShortcuts: () => ({
            'Mod-k': () => {
              this.openLink();
              return true;
            },
            Escape: () => this.focusToolbar(),
            'Alt-F10': () => this.focusToolbar(),
          }),
        }),
      ],
      editorProps: { attributes: () => this.#attributes() },
      onUpdate: ({ editor }) => {
        const html = editorHtml(editor.getHTML());
        if (html === this.#known) return;
        this.#known = html;
        this.#view?.set(html);
      },
      // The toolbar's pressed states follow the cursor.
      onTransaction: () => this.requestUpdate(),
    });
    this.#attributesKey = JSON.stringify(this.#attributes());
    this.requestUpdate();
  }

  protected override updated(): void {
    const editor = this.#editor;
    const view = this.#view;
    if (!editor || !view || editor.isDestroyed) return;
    const value = textOf(view.value);
    if (value !== this.#seen && value !== this.#known) {
      // From outside (a restored draft, a merge): shown, not reported, not undoable.
      this.#known = value;
      editor.chain().setMeta('addToHistory', false).setContent(value, { emitUpdate: false }).run();
    }
    this.#seen = value;
    if (editor.isEditable === view.readOnly) editor.setEditable(!view.readOnly, false);
    const key = JSON.stringify(this.#attributes());
    if (key !== this.#attributesKey) {
      this.#attributesKey = key;
      editor.setOptions({});
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#editor?.destroy();
    this.#editor = undefined;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Moved in the page (a tab of the form re-rendered): a new editor on the next render.
    if (this.hasUpdated) this.#mount();
  }

  /** Escape and Alt+F10: the focus to the toolbar's tab stop. Answers whether there was one. */
  focusToolbar(): boolean {
    const buttons = this.#buttons();
    const button = buttons[Math.min(this.#current, buttons.length - 1)];
    if (!button) return false;
    button.focus();
    return true;
  }

  openLink(): void {
    if (!this.#editor || this.#view?.readOnly) return;
    this.linkOpen = true;
    this.linkError = false;
    this.requestUpdate();
    void this.updateComplete.then(() => {
      const input = this.querySelector<HTMLInputElement>('.cms-rich-editor__link input');
      if (!input) return;
      input.value = String(this.#editor?.getAttributes('link').href ?? '');
      input.focus();
      input.select();
    });
  }

  #closeLink(): void {
    this.linkOpen = false;
    this.linkError = false;
    this.requestUpdate();
    this.#editor?.commands.focus();
  }

  #applyLink(): void {
    const editor = this.#editor;
    const input = this.querySelector<HTMLInputElement>('.cms-rich-editor__link input');
    if (!editor || !input) return;
    const href = linkHref(input.value);
    if (href === undefined) {
      this.linkError = true;
      this.requestUpdate();
      input.focus();
      return;
    }
    const chain = editor.chain().focus().extendMarkRange('link');
    if (href === '') chain.unsetLink().run();
    else if (editor.state.selection.empty && !editor.isActive('link'))
      // No text chosen: the address itself becomes the link's text.
      chain.insertContent({ type: 'text', text: href, marks: [{ type: 'link', attrs: { href } }] }).run();
    else chain.setLink({ href }).run();
    this.linkOpen = false;
    this.linkError = false;
    this.requestUpdate();
  }

  #removeLink(): void {
    this.#editor?.chain().focus().extendMarkRange('link').unsetLink().run();
    this.linkOpen = false;
    this.requestUpdate();
  }

  #buttons(): HTMLButtonElement[] {
    return [...this.querySelectorAll<HTMLButtonElement>('.cms-rich-editor__toolbar button')];
  }

  #onToolbarKey(event: KeyboardEvent): void {
    const buttons = this.#buttons();
    const index = buttons.indexOf(event.target as HTMLButtonElement);
    if (index < 0) return;
    const rtl = getComputedStyle(this).direction === 'rtl';
    const next = rovingIndex(event.key, index, buttons.length, rtl);
    if (next === undefined) {
      if (event.key === 'Escape') {
        event.preventDefault();
        this.#editor?.commands.focus();
      }
      return;
    }
    event.preventDefault();
    this.#current = next;
    this.requestUpdate();
    buttons[next]!.focus();
  }

  #toolbar(editor: Editor | undefined): TemplateResult {
    const view = this.#view!;
    const tools = this.#tools();
    return html`<div
      class="cms-rich-editor__toolbar"
      role="toolbar"
      aria-label=${this.#t('format_toolbar')}
      aria-controls=${view.id}
      @keydown=${(event: KeyboardEvent) => this.#onToolbarKey(event)}
    >
      ${tools.map((tool, index) => {
        const enabled = editor ? (tool.enabled?.(editor) ?? true) : false;
        return html`<button
          type="button"
          class="cms-rich-editor__tool"
          data-tool=${tool.key}
          aria-label=${tool.label}
          title=${tool.label}
          tabindex=${index === this.#current ? '0' : '-1'}
          aria-pressed=${tool.active ? (editor && tool.active(editor) ? 'true' : 'false') : nothing}
          aria-disabled=${enabled ? nothing : 'true'}
          @mousedown=${(event: MouseEvent) => event.preventDefault()}
          @click=${() => {
            this.#current = index;
            if (editor && enabled) tool.run(editor);
          }}
        >
          ${
            // A letter pair ("H2") is drawn by CSS: the button's name is its label, not those letters.
            typeof tool.glyph === 'string'
              ? html`<span class="cms-rich-editor__glyph" data-glyph=${tool.glyph} aria-hidden="true"></span>`
              : html`<span aria-hidden="true">${tool.glyph}</span>`
          }
        </button>`;
      })}
    </div>`;
  }

  #linkBox(): TemplateResult | typeof nothing {
    if (!this.linkOpen) return nothing;
    const id = `${this.#view!.id}-link`;
    const active = this.#editor?.isActive('link') ?? false;
    return html`<div
      class="cms-rich-editor__link"
      role="group"
      aria-label=${this.#t('format_link')}
      @keydown=${(event: KeyboardEvent) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          event.stopPropagation();
          this.#closeLink();
        }
      }}
    >
      <label for=${id}>${this.#t('link_address')}</label>
      <input
        id=${id}
        type="text"
        inputmode="url"
        autocomplete="off"
        spellcheck="false"
        aria-invalid=${this.linkError ? 'true' : nothing}
        aria-describedby=${this.linkError ? `${id}-error` : nothing}
        @keydown=${(event: KeyboardEvent) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            this.#applyLink();
          }
        }}
      />
      <button type="button" class="cms-button" @click=${() => this.#applyLink()}>${this.#t('link_apply')}</button>
      ${active ? html`<button type="button" class="cms-button" @click=${() => this.#removeLink()}>${this.#t('link_remove')}</button>` : nothing}
      <button type="button" class="cms-button" @click=${() => this.#closeLink()}>${this.#t('cancel')}</button>
      ${this.linkError ? html`<p id=${`${id}-error`} class="cms-rich-editor__error">${this.#t('link_invalid')}</p>` : nothing}
    </div>`;
  }

  override render(): TemplateResult | typeof nothing {
    const view = this.#view;
    if (!view) return nothing;
    const editor = this.#editor;
    return html`<div class="cms-rich-editor" ?data-invalid=${view.invalid} ?data-readonly=${view.readOnly}>
      ${view.readOnly ? nothing : this.#toolbar(editor)} ${view.readOnly ? nothing : this.#linkBox()}
      <div class="cms-rich-editor__surface"></div>
    </div>`;
  }
}

if (!customElements.get('cms-rich-editor')) customElements.define('cms-rich-editor', CmsRichEditor);
