import type { FieldView } from './field-types.ts';
import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import type { CmsApp } from '../app.ts';
import { LightElement } from '../element.ts';
import { type ListKey, matchOptions, nextActive } from './choice-logic.ts';
import './combobox.css';

/** One option of the listbox; `key` is the option's value as text, `locked` ones cannot be picked. */
export interface ComboOption {
  readonly key: string;
  readonly label: string;
  readonly locked?: boolean;
}

/** A page of options from a remote source; `total` for the announcement when known. */
export interface ComboPage {
  readonly options: readonly ComboOption[];
  readonly more: boolean;
  readonly total?: number;
}

/**
 * Where the options come from: a list filtered here as the text is typed, a function asked for a
 * page of matches (debounced, the previous request aborted), or `null` for a plain text box with
 * no popup (a taglist without offered tags).
 */
type ComboSource = readonly ComboOption[] | ((search: string, page: number, signal: AbortSignal) => Promise<ComboPage>) | null;

export interface ComboConfig {
  readonly app: CmsApp;
  /** The id of the text box (the form's `<label for>` points at it). */
  readonly inputId: string;
  /** The name of the listbox (the field's label). */
  readonly label: string;
  readonly describedBy?: string | undefined;
  readonly invalid?: boolean;
  readonly required?: boolean;
  readonly readOnly?: boolean;
  readonly source: ComboSource;
  /** The text shown while nothing is typed: the chosen option's label for a single choice. */
  readonly display?: string;
  /** The key of the chosen option (`aria-selected`). */
  readonly selectedKey?: string | undefined;
  /** With typed text, the first match becomes active, so Enter picks it (APG "automatic selection"). */
  readonly autoSelect?: boolean;
  readonly onPick?: (option: ComboOption) => void;
  /** Enter (or leaving) with typed text and no active option; true when the text was taken (the box empties). */
  readonly onFree?: (text: string) => boolean;
  /** Each change of the typed text; answers the text to keep (a taglist takes the finished tags out). */
  readonly onType?: (text: string) => string;
  /** Backspace in the empty box (chips: removes the last one). */
  readonly onBackspaceEmpty?: () => void;
}

const DEBOUNCE_MS = 250;

/**
 * An editable combobox with a listbox popup and list autocomplete (WAI-ARIA APG "Combobox"; docs/admin-ui.md,
 * "Forms"). Focus stays in the text box; the active option is `aria-activedescendant`. Down and Up
 * open the list and move, Home and End jump while an option is active, Enter picks, Escape closes
 * (and then reverts the typed text), leaving the box closes it. A remote source is asked page by
 * page, the next page when the last option is reached or the list is scrolled to its end. The
 * number of results is said in a polite live region. The value is never kept here: a pick is
 * reported through `onPick` and shown again through `display`.
 */
export class CmsCombobox extends LightElement {
  #config: ComboConfig | undefined;
  /** The typed text; undefined while the box shows `display`. */
  #query: string | undefined;
  #open = false;
  #options: ComboOption[] = [];
  #active = -1;
  #page = 1;
  #more = false;
  #loading = false;
  #failed = false;
  /** Make the first (or last) option active when the loading page arrives (Down or Up opened the list). */
  #activateOnLoad: 'first' | 'last' | undefined;
  #status = '';
  #abort: AbortController | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #scrollActive = false;

  get config(): ComboConfig | undefined {
    return this.#config;
  }

  set config(value: ComboConfig) {
    this.#config = value;
    this.requestUpdate();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#abort?.abort();
    clearTimeout(this.#timer);
  }

  get #listboxId(): string {
    return `${this.#config?.inputId ?? 'cms-combobox'}-listbox`;
  }

  #optionId(index: number): string {
    return `${this.#config?.inputId ?? 'cms-combobox'}-option-${index}`;
  }

  get #expanded(): boolean {
    return this.#open && this.#options.length > 0;
  }

  #say(message: string): void {
    // The same text twice is still said: clear first, then set on the next frame.
    this.#status = '';
    this.requestUpdate();
    requestAnimationFrame(() => {
      this.#status = message;
      this.requestUpdate();
    });
  }

  #announceCount(count: number): void {
    const app = this.#config?.app;
    if (!app) return;
    this.#say(count === 0 ? app.t('choice_no_results') : app.t('choice_results', {}, count));
  }

  #openList(activate?: 'first' | 'last'): void {
    if (!this.#config?.source) return;
    this.#open = true;
    this.#activateOnLoad = activate;
    this.#load(true, 0);
  }

  #close(): void {
    this.#open = false;
    // The next opening asks again: no stale options show (nor count as shown) meanwhile.
    this.#options = [];
    this.#more = false;
    this.#active = -1;
    this.#activateOnLoad = undefined;
    this.#abort?.abort();
    clearTimeout(this.#timer);
    this.#loading = false;
    this.requestUpdate();
  }

  /** Asks for the options of the typed text: the first page (`reset`) or the next one. */
  #load(reset: boolean, delay: number): void {
    const source = this.#config?.source;
    if (!source) return;
    const search = (this.#query ?? '').trim();
    if (Array.isArray(source) || typeof source !== 'function') {
      this.#options = matchOptions(source as readonly ComboOption[], search, this.#config?.app.i18n?.locale);
      this.#more = false;
      this.#failed = false;
      this.#arrived(reset);
      this.#announceCount(this.#options.length);
      this.requestUpdate();
      return;
    }
    clearTimeout(this.#timer);
    this.#abort?.abort();
    const controller = new AbortController();
    this.#abort = controller;
    const page = reset ? 1 : this.#page + 1;
    this.#loading = true;
    this.requestUpdate();
    const run = async () => {
      try {
        const answer = await source(search, page, controller.signal);
        if (controller.signal.aborted) return;
        this.#options = reset ? [...answer.options] : [...this.#options, ...answer.options];
        this.#page = page;
        this.#more = answer.more;
        this.#failed = false;
        this.#loading = false;
        this.#arrived(reset);
        if (reset) this.#announceCount(answer.total ?? this.#options.length);
      } catch (error) {
        if (controller.signal.aborted || (error instanceof DOMException && error.name === 'AbortError')) return;
        this.#loading = false;
        this.#failed = true;
        if (reset) this.#options = [];
        this.#say(this.#config?.app.t('choice_load_error') ?? '');
      }
      this.requestUpdate();
    };
    if (delay > 0) this.#timer = setTimeout(() => void run(), delay);
    else void run();
  }

  /** A page arrived: which option is active now. */
  #arrived(reset: boolean): void {
    if (!reset) return;
    const count = this.#options.length;
    if (this.#activateOnLoad) {
      this.#active = nextActive(-1, this.#activateOnLoad === 'first' ? 'ArrowDown' : 'ArrowUp', count);
      this.#activateOnLoad = undefined;
    } else if (this.#config?.autoSelect && (this.#query ?? '').trim() !== '') {
      this.#active = count > 0 ? 0 : -1;
    } else {
      this.#active = -1;
    }
    this.#scrollActive = true;
  }

  #move(key: ListKey): void {
    this.#active = nextActive(this.#active, key, this.#options.length);
    this.#scrollActive = true;
    if (this.#more && !this.#loading && this.#active === this.#options.length - 1) this.#load(false, 0);
    this.requestUpdate();
  }

  #pick(index: number): void {
    const option = this.#options[index];
    if (!option || option.locked) return;
    this.#query = undefined;
    this.#close();
    this.#config?.onPick?.(option);
  }

  #onInput = (event: Event): void => {
    const input = event.target as HTMLInputElement;
    let text = input.value;
    const onType = this.#config?.onType;
    if (onType) {
      const kept = onType(text);
      if (kept !== text) {
        text = kept;
        input.value = kept;
      }
    }
    this.#query = text;
    if (!this.#config?.source) return;
    this.#open = true;
    this.#active = -1;
    this.#load(true, typeof this.#config.source === 'function' ? DEBOUNCE_MS : 0);
  };

  #onKeydown = (event: KeyboardEvent): void => {
    const config = this.#config;
    if (!config || config.readOnly) return;
    const input = event.target as HTMLInputElement;
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp':
        if (!config.source) return;
        event.preventDefault();
        if (event.altKey) {
          if (event.key === 'ArrowDown' && !this.#open) this.#openList();
          else if (event.key === 'ArrowUp' && this.#open) this.#close();
          return;
        }
        if (!this.#open) this.#openList(event.key === 'ArrowDown' ? 'first' : 'last');
        else this.#move(event.key);
        return;
      case 'Home':
      case 'End':
        if (!this.#expanded || this.#active < 0) return;
        event.preventDefault();
        this.#move(event.key);
        return;
      case 'ArrowLeft':
      case 'ArrowRight':
        // Back to editing the text: no option is active any more.
        if (this.#active >= 0) {
          this.#active = -1;
          this.requestUpdate();
        }
        return;
      case 'Enter': {
        if (this.#expanded && this.#active >= 0) {
          event.preventDefault();
          this.#pick(this.#active);
          return;
        }
        // The options are still coming: Enter waits for them rather than closing the list.
        if (this.#open && this.#loading) {
          event.preventDefault();
          return;
        }
        const text = input.value;
        if (text.trim() !== '' && config.onFree) {
          event.preventDefault();
          if (config.onFree(text)) {
            this.#query = undefined;
            input.value = config.display ?? '';
            this.#close();
          }
          return;
        }
        if (this.#open) {
          event.preventDefault();
          this.#close();
        }
        return;
      }
      case 'Escape':
        if (this.#open) {
          event.preventDefault();
          event.stopPropagation();
          this.#close();
        } else if (this.#query !== undefined) {
          event.preventDefault();
          event.stopPropagation();
          this.#query = undefined;
          this.requestUpdate();
        }
        return;
      case 'Backspace':
        if (input.value === '' && input.selectionStart === 0 && config.onBackspaceEmpty) {
          event.preventDefault();
          config.onBackspaceEmpty();
        }
        return;
      default:
        return;
    }
  };

  #onBlur = (): void => {
    const config = this.#config;
    const text = this.#query;
    if (this.#open) this.#close();
    if (text !== undefined && text.trim() !== '' && config?.onFree?.(text)) {
      this.#query = undefined;
    } else if (text !== undefined) {
      // A single choice shows its chosen label again; nothing typed is taken without a pick.
      this.#query = undefined;
    }
    this.requestUpdate();
  };

  #onClick = (): void => {
    if (this.#config?.readOnly || !this.#config?.source) return;
    if (this.#open) this.#close();
    else this.#openList();
  };

  #onScroll = (event: Event): void => {
    const list = event.target as HTMLElement;
    if (this.#more && !this.#loading && list.scrollTop + list.clientHeight >= list.scrollHeight - 24) this.#load(false, 0);
  };

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    if (!this.#scrollActive) return;
    this.#scrollActive = false;
    if (this.#active >= 0) this.querySelector(`#${CSS.escape(this.#optionId(this.#active))}`)?.scrollIntoView({ block: 'nearest' });
  }

  override render(): TemplateResult | typeof nothing {
    const config = this.#config;
    if (!config) return nothing;
    const text = this.#query ?? config.display ?? '';
    const status = html`<span class="cms-visually-hidden" role="status">${this.#status}</span>`;
    if (config.readOnly || !config.source) {
      return html`<input
          class="cms-combobox-input"
          id=${config.inputId}
          type="text"
          autocomplete="off"
          .value=${live(text)}
          ?readonly=${config.readOnly}
          aria-describedby=${config.describedBy ?? nothing}
          aria-invalid=${config.invalid ? 'true' : nothing}
          aria-required=${config.required && !config.readOnly ? 'true' : nothing}
          @input=${this.#onInput}
          @keydown=${this.#onKeydown}
          @blur=${this.#onBlur}
        />${status}`;
    }
    const expanded = this.#expanded;
    const note = this.#open && this.#options.length === 0 ? this.#note(config) : undefined;
    return html`<div class="cms-combobox">
      <input
        class="cms-combobox-input"
        id=${config.inputId}
        type="text"
        role="combobox"
        autocomplete="off"
        spellcheck="false"
        aria-autocomplete="list"
        aria-expanded=${expanded ? 'true' : 'false'}
        aria-controls=${this.#listboxId}
        aria-activedescendant=${expanded && this.#active >= 0 ? this.#optionId(this.#active) : nothing}
        aria-describedby=${config.describedBy ?? nothing}
        aria-invalid=${config.invalid ? 'true' : nothing}
        aria-required=${config.required ? 'true' : nothing}
        aria-busy=${this.#loading ? 'true' : nothing}
        .value=${live(text)}
        @input=${this.#onInput}
        @keydown=${this.#onKeydown}
        @blur=${this.#onBlur}
        @click=${this.#onClick}
        @focus=${(event: FocusEvent) => (event.target as HTMLInputElement).select()}
      />
      <ul
        class="cms-listbox"
        id=${this.#listboxId}
        role="listbox"
        aria-label=${config.label}
        ?hidden=${!expanded}
        @mousedown=${(event: Event) => event.preventDefault()}
        @scroll=${this.#onScroll}
      >
        ${this.#options.map(
          (option, index) => html`<li
            id=${this.#optionId(index)}
            role="option"
            class=${index === this.#active ? 'cms-option cms-option-active' : 'cms-option'}
            aria-selected=${option.key === config.selectedKey ? 'true' : 'false'}
            aria-disabled=${option.locked ? 'true' : nothing}
            @click=${() => this.#pick(index)}
          >
            <span class="cms-option-label">${option.label}</span>${
              option.locked
                ? html` <span class="cms-lock"><span aria-hidden="true">🔒</span> ${config.app.t('choice_locked')}</span>`
                : nothing
            }
          </li>`,
        )}
      </ul>
      ${note ? html`<p class="cms-combobox-note">${note}</p>` : nothing} ${status}
    </div>`;
  }

  #note(config: ComboConfig): string {
    if (this.#loading) return config.app.t('loading');
    if (this.#failed) return config.app.t('choice_load_error');
    return config.app.t('choice_no_results');
  }
}

if (!customElements.get('cms-combobox')) customElements.define('cms-combobox', CmsCombobox);

/** A combobox for a field: `render()` of a field module returns this. */
/** What every field's combobox takes from its field: the input's id, its name and its state. */
export const fieldCombo = (view: FieldView): Pick<ComboConfig, 'app' | 'inputId' | 'label' | 'describedBy' | 'invalid'> => ({
  app: view.host.app,
  inputId: view.id,
  label: view.field.label ?? view.field.name,
  describedBy: view.describedBy,
  invalid: view.invalid,
});

export const combobox = (config: ComboConfig): TemplateResult => html`<cms-combobox .config=${config}></cms-combobox>`;
