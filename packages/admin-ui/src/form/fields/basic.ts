import { html, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import { LightElement } from '../../element.ts';
import type { FormField } from '../../types.ts';
import type { FieldModule, FieldView } from '../field-types.ts';
import { parseDecimal, showDecimal } from '../numbers.ts';

/**
 * The form's plain controls (docs/admin-ui.md, "Field types"): text, mltext, textarea, number,
 * money, password, and the placeholders of the field types part 3 brings. Each shows
 * `view.value` and reports what the admin typed through `view.set`.
 */

const text = (value: unknown): string => (value === null || value === undefined ? '' : String(value));

const ariaOf = (view: FieldView) => ({
  describedBy: view.describedBy ?? nothing,
  invalid: view.invalid ? 'true' : nothing,
  required: view.field.required ? 'true' : nothing,
});

const attributeOf = (field: FormField, name: string): string | undefined => {
  const value = field.attributes?.[name];
  return value === null || value === undefined ? undefined : String(value);
};

export const textField: FieldModule = {
  render(view) {
    const a = ariaOf(view);
    return html`<input
      class="cms-input"
      id=${view.id}
      type="text"
      .value=${live(text(view.value))}
      ?readonly=${view.readOnly}
      maxlength=${attributeOf(view.field, 'maxlength') ?? nothing}
      placeholder=${attributeOf(view.field, 'placeholder') ?? nothing}
      aria-describedby=${a.describedBy}
      aria-invalid=${a.invalid}
      aria-required=${a.required}
      @input=${(event: Event) => view.set((event.target as HTMLInputElement).value)}
    />`;
  },
  empty: () => '',
};

const ROWS: Record<string, number> = { tiny: 2, small: 3, large: 10, huge: 16, giant: 24 };

export const textareaField: FieldModule = {
  render(view) {
    const a = ariaOf(view);
    return html`<textarea
      class="cms-input cms-textarea"
      id=${view.id}
      rows=${ROWS[view.field.size ?? ''] ?? 5}
      .value=${live(text(view.value))}
      ?readonly=${view.readOnly}
      aria-describedby=${a.describedBy}
      aria-invalid=${a.invalid}
      aria-required=${a.required}
      @input=${(event: Event) => view.set((event.target as HTMLTextAreaElement).value)}
    ></textarea>`;
  },
  empty: () => '',
};

/**
 * The input of `number` and `money`: text with `inputmode="decimal"`, read in the admin's spelling.
 * `parse` turns what was typed into the field's value (null when empty).
 */
function decimalInput(
  view: FieldView,
  shown: string,
  parse: (typed: string) => unknown,
  onKeydown?: (event: KeyboardEvent) => void,
): TemplateResult {
  const a = ariaOf(view);
  return html`<input
    class="cms-input cms-number"
    id=${view.id}
    type="text"
    inputmode="decimal"
    .value=${live(shown)}
    ?readonly=${view.readOnly}
    aria-describedby=${a.describedBy}
    aria-invalid=${a.invalid}
    aria-required=${a.required}
    @input=${(event: Event) => {
      const typed = (event.target as HTMLInputElement).value;
      view.set(typed.trim() === '' ? null : parse(typed));
    }}
    @keydown=${onKeydown ?? nothing}
  />`;
}

/**
 * `number`: typed in the admin's spelling (`1,5` in German). A text that is a number is sent as a
 * number; one that is not stays as typed, so nothing the admin wrote disappears and the server
 * answers what is wrong with it.
 */
export const numberField: FieldModule = {
  render(view) {
    const locale = view.host.app.i18n?.locale ?? 'en';
    const shown = typeof view.value === 'number' ? showDecimal(String(view.value), locale) : text(view.value);
    const step = view.field.step ?? attributeOf(view.field, 'step');
    const input = decimalInput(
      view,
      shown,
      (typed) => {
        const parsed = parseDecimal(typed, locale);
        return parsed === undefined ? typed : Number(parsed);
      },
      (event) => {
        // Arrow keys step the value, as a spin button would, within min and max.
        if (view.readOnly || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown')) return;
        const current = typeof view.value === 'number' ? view.value : 0;
        const by = Number(step) || 1;
        let next = current + (event.key === 'ArrowUp' ? by : -by);
        if (view.field.min !== undefined) next = Math.max(Number(view.field.min), next);
        if (view.field.max !== undefined) next = Math.min(Number(view.field.max), next);
        event.preventDefault();
        view.set(Number(next.toFixed(10)));
      },
    );
    return html`${input}${
      view.field.min !== undefined || view.field.max !== undefined
        ? html`<span class="cms-field-hint">${[view.field.min, view.field.max].map((n) => (n === undefined ? '…' : String(n))).join(' – ')}</span>`
        : nothing
    }`;
  },
  empty: () => null,
};

/** The symbol of a currency in the admin's language, and whether it comes before the number. */
function currencyAffix(currency: string, locale: string): { symbol: string; before: boolean } | undefined {
  try {
    const parts = new Intl.NumberFormat(locale, { style: 'currency', currency }).formatToParts(1);
    const at = parts.findIndex((part) => part.type === 'currency');
    const number = parts.findIndex((part) => part.type === 'integer');
    return at < 0 ? undefined : { symbol: parts[at]!.value, before: at < number };
  } catch {
    return undefined;
  }
}

/**
 * `money`: a decimal string, never a float: `49.90` is shown `49,90` in German and sent back as
 * `49.90`; what the admin types is turned into the plain decimal string, or kept as typed when it
 * is not a number (the server answers `money.invalid`, `money.too_precise`).
 */
export const moneyField: FieldModule = {
  render(view) {
    const locale = view.host.app.i18n?.locale ?? 'en';
    const field = view.field;
    const currency = field.currency ?? (field.currencyFrom ? text(view.host.fieldValue(field.currencyFrom)) : '');
    const affix = currency ? currencyAffix(currency, locale) : undefined;
    const shown = typeof view.value === 'string' && /^-?\d+(\.\d+)?$/.test(view.value) ? showDecimal(view.value, locale) : text(view.value);
    const symbol = affix ? html`<span class="cms-affix" aria-hidden="true">${affix.symbol}</span>` : nothing;
    return html`<span class="cms-money">
      ${affix?.before ? symbol : nothing}
      ${decimalInput(view, shown, (typed) => parseDecimal(typed, locale) ?? typed)}
      ${affix && !affix.before ? symbol : nothing}
      ${currency ? html`<span class="cms-visually-hidden">${currency}</span>` : nothing}
    </span>`;
  },
  empty: () => null,
};

/**
 * A settings secret cleared by the admin (docs/admin-ui.md, "Settings"): sent as `null`. Not an
 * empty text, which the form counts as unchanged (and the server as "keep").
 */
const CLEAR_SECRET = Object.freeze({ clear: true });

const isClear = (value: unknown): boolean => typeof value === 'object' && value !== null && (value as { clear?: unknown }).clear === true;

/** A form that edits settings knows each secret's state (`meta.secrets`); any other form answers nothing. */
interface SecretHost {
  secretState?(name: string): string | undefined;
}

/**
 * `password`: never filled in (a record never carries it), sent only when something was typed. On
 * a settings form it is a secret with a state: `stored` (type to replace it, or clear it: sent as
 * `null`), `env` (set by the environment: read only) or `empty`; a secret left alone is not sent,
 * so the stored value stays.
 */
export const passwordField: FieldModule = {
  render(view) {
    return html`<cms-password-input .view=${view}></cms-password-input>`;
  },
  empty: () => '',
  toBody: (value) => (isClear(value) ? null : typeof value === 'string' && value !== '' ? value : undefined),
};

/** The password input with its show/hide toggle: whether it shows is the control's state, not the form's. */
class PasswordInput extends LightElement {
  #view!: FieldView;
  #shown = false;

  set view(view: FieldView) {
    this.#view = view;
    this.requestUpdate();
  }

  override render(): TemplateResult {
    const view = this.#view;
    const app = view.host.app;
    const state = (view.host as SecretHost).secretState?.(view.field.name);
    const stateId = `${view.id}-secret`;
    if (state === 'env') {
      // Nothing to type: the environment's value wins over anything stored.
      return html`<output class="cms-secret-state" id=${view.id}>${app.t('secret_env')}</output>`;
    }
    const cleared = isClear(view.value);
    const a = ariaOf(view);
    const describedBy = state ? [stateId, view.describedBy].filter(Boolean).join(' ') : a.describedBy;
    const stateText = cleared ? app.t('secret_cleared') : state === 'stored' ? app.t('secret_stored') : app.t('secret_empty');
    return html`${state ? html`<p class="cms-secret-state" id=${stateId}>${stateText}</p>` : nothing}
      <span class="cms-password">
        <input
          class="cms-input"
          id=${view.id}
          type=${this.#shown ? 'text' : 'password'}
          autocomplete="new-password"
          .value=${live(cleared ? '' : text(view.value))}
          ?readonly=${view.readOnly}
          aria-describedby=${describedBy}
          aria-invalid=${a.invalid}
          @input=${(event: Event) => view.set((event.target as HTMLInputElement).value)}
        />
        <button
          type="button"
          class="cms-button cms-link"
          aria-pressed=${String(this.#shown)}
          aria-controls=${view.id}
          @click=${() => {
            this.#shown = !this.#shown;
            this.requestUpdate();
          }}
        >
          ${this.#shown ? app.t('password_hide') : app.t('password_show')}
        </button>
        ${
          state === 'stored' && !view.readOnly
            ? cleared
              ? html`<button type="button" class="cms-button" @click=${() => view.set('')}>${app.t('secret_keep')}</button>`
              : html`<button type="button" class="cms-button cms-danger" @click=${() => view.set(CLEAR_SECRET)}>${app.t('secret_clear')}</button>`
            : nothing
        }
      </span>`;
  }
}
if (!customElements.get('cms-password-input')) customElements.define('cms-password-input', PasswordInput);

/**
 * `mltext`: one text per locale the admin serves, the fallback locale marked (a required field
 * needs its text; the others fall back to it), with a switcher between them.
 */
export const mltextField: FieldModule = {
  frame: 'group',
  render(view) {
    return html`<cms-mltext .view=${view}></cms-mltext>`;
  },
  empty: () => ({}),
};

class MlText extends LightElement {
  #view!: FieldView;
  #locale: string | undefined;

  set view(view: FieldView) {
    this.#view = view;
    this.requestUpdate();
  }

  #choose(locale: string): void {
    this.#locale = locale;
    this.requestUpdate();
    void this.updateComplete.then(() => this.querySelector('input')?.focus());
  }

  override render(): TemplateResult {
    const view = this.#view;
    const app = view.host.app;
    const fallback = app.boot.fallbackLocale;
    const current = (this.#locale ??= fallback);
    const values = (view.value && typeof view.value === 'object' ? view.value : {}) as Record<string, string>;
    const names = new Intl.DisplayNames([app.i18n?.locale ?? 'en'], { type: 'language' });
    const nameOf = (locale: string) => names.of(locale) ?? locale;
    const a = ariaOf(view);
    return html`<div class="cms-mltext-locales" role="group" aria-label=${app.t('mltext_locales')}>
        ${app.boot.locales.map(
          (locale) => html`<button
            type="button"
            class="cms-chip-button"
            lang=${locale}
            aria-pressed=${String(locale === current)}
            @click=${() => this.#choose(locale)}
          >
            ${locale === fallback ? app.t('mltext_fallback', { language: nameOf(locale) }) : nameOf(locale)}
          </button>`,
        )}
      </div>
      <input
        class="cms-input"
        id=${view.id}
        lang=${current}
        .value=${live(values[current] ?? '')}
        ?readonly=${view.readOnly}
        placeholder=${current !== fallback && !values[current] && values[fallback] ? values[fallback] : nothing}
        aria-label="${view.field.label ?? view.field.name} (${nameOf(current)})"
        aria-describedby=${a.describedBy}
        aria-invalid=${a.invalid}
        @input=${(event: Event) => view.set({ ...values, [current]: (event.target as HTMLInputElement).value })}
      />
      ${
        current !== fallback && !view.readOnly && values[fallback]
          ? html`<button
            type="button"
            class="cms-button cms-link"
            @click=${() => {
              view.set({ ...values, [current]: values[fallback] });
              this.querySelector('input')?.focus();
            }}
          >
            ${app.t('mltext_copy_fallback')}
          </button>`
          : nothing
      }`;
  }
}
if (!customElements.get('cms-mltext')) customElements.define('cms-mltext', MlText);

/** A type the application does not know and that names no element: shown as text, read only. */
export const unknownField: FieldModule = {
  render(view) {
    return html`<output class="cms-input cms-readonly" id=${view.id}>${view.value === undefined ? '' : JSON.stringify(view.value)}</output>
      <p class="cms-muted">${view.host.app.t('field_unknown_type', { type: view.field.type })}</p>`;
  },
};

/** `partial`: the controller's partial for this record, from its node tree. No value. */
export const partialField: FieldModule = {
  frame: 'group',
  render(view) {
    return html`<cms-partial
      id=${view.id}
      .app=${view.host.app}
      .ctl=${view.host.ctl}
      .name=${view.field.path ?? view.field.name}
      .recordId=${view.host.recordId}
    ></cms-partial>`;
  },
};
