import { html, nothing, type TemplateResult } from 'lit';
import type { CmsApp } from '../app.ts';
import { LightElement } from '../element.ts';
import type { ListFilter } from '../types.ts';

let serial = 0;

/**
 * One filter of a list (docs/admin-ui.md, "Lists"), by its type: `group` and `scope` as a list of
 * checkboxes (a scope's options come from `filters/{name}/options` when first opened), `switch` as
 * any/yes/no, `daterange` as two dates, `text` as a field. It fires `filter-change` with the value
 * in the list route's format (`a,b`, `1`/`0`, `from,to`, text); an empty value clears the filter.
 */
export class CmsListFilter extends LightElement {
  app!: CmsApp;
  ctl!: string;
  filter!: ListFilter;
  value = '';
  options: { label: string; value: string }[] | undefined;
  readonly #id = `cms-filter-${++serial}`;

  /** An open list of options closes on Escape and on a click elsewhere. */
  #close = (event: Event) => {
    const details = this.querySelector('details');
    if (!details?.open) return;
    if (event instanceof KeyboardEvent ? event.key === 'Escape' : !this.contains(event.target as Node)) {
      details.open = false;
      if (event instanceof KeyboardEvent) details.querySelector('summary')?.focus();
    }
  };

  override connectedCallback(): void {
    super.connectedCallback();
    document.addEventListener('click', this.#close);
    document.addEventListener('keydown', this.#close);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    document.removeEventListener('click', this.#close);
    document.removeEventListener('keydown', this.#close);
  }

  #emit(value: string): void {
    this.dispatchEvent(new CustomEvent('filter-change', { detail: value }));
  }

  async #loadOptions(): Promise<void> {
    if (this.options || this.filter.type !== 'scope') return;
    try {
      this.options = (
        await this.app.api.call<{ label: string; value: string }[]>('GET', `/${this.ctl}/filters/${this.filter.name}/options`)
      ).data;
    } catch {
      this.options = [];
    }
    this.requestUpdate();
  }

  override render(): TemplateResult {
    const filter = this.filter;
    const label = filter.label ?? filter.name;
    switch (filter.type) {
      case 'group':
      case 'scope': {
        const chosen = new Set(this.value.split(',').filter(Boolean));
        const options = filter.type === 'group' ? (filter.options ?? []) : this.options;
        return html`<details class="cms-filter" @toggle=${() => void this.#loadOptions()}>
          <summary>${label}${chosen.size ? html` <span class="cms-count">(${this.app.i18n!.number(chosen.size)})</span>` : nothing}</summary>
          <fieldset>
            <legend class="cms-visually-hidden">${label}</legend>
            ${
              options === undefined
                ? html`<p role="status">${this.app.t('loading')}</p>`
                : options.map(
                    (option) => html`<label
                      ><input
                        type="checkbox"
                        .checked=${chosen.has(option.value)}
                        @change=${(event: Event) => {
                          const next = new Set(chosen);
                          (event.target as HTMLInputElement).checked ? next.add(option.value) : next.delete(option.value);
                          this.#emit([...next].join(','));
                        }}
                      />
                      ${option.label}</label
                    >`,
                  )
            }
          </fieldset>
        </details>`;
      }
      case 'switch':
        return html`<label class="cms-filter" for=${this.#id}>${label}</label>
          <select id=${this.#id} @change=${(event: Event) => this.#emit((event.target as HTMLSelectElement).value)}>
            <option value="" ?selected=${this.value === ''}>${this.app.t('any')}</option>
            <option value="1" ?selected=${this.value === '1' || this.value === 'true'}>${this.app.t('yes')}</option>
            <option value="0" ?selected=${this.value === '0' || this.value === 'false'}>${this.app.t('no')}</option>
          </select>`;
      case 'daterange': {
        const [from = '', to = ''] = this.value.split(',');
        const emit = () => {
          const inputs = this.querySelectorAll<HTMLInputElement>('input[type=date]');
          const next = `${inputs[0]?.value ?? ''},${inputs[1]?.value ?? ''}`;
          this.#emit(next === ',' ? '' : next);
        };
        return html`<fieldset class="cms-filter cms-daterange">
          <legend>${label}</legend>
          <label>${this.app.t('date_from')} <input type="date" .value=${from} @change=${emit} /></label>
          <label>${this.app.t('date_to')} <input type="date" .value=${to} @change=${emit} /></label>
        </fieldset>`;
      }
      default:
        return html`<label class="cms-filter" for=${this.#id}>${label}</label>
          <input id=${this.#id} type="text" .value=${this.value} @change=${(event: Event) => this.#emit((event.target as HTMLInputElement).value.trim())} />`;
    }
  }
}

customElements.define('cms-list-filter', CmsListFilter);
