// <acme-price-helper>: the client element of the products form's `price_helper` widget field
// (acme/catalog, action `suggestPrice`). It holds one labelled input, the margin in percent
// (default 30). The admin application reads `payload` ({ margin }) when its action button is
// pressed; Enter in the input runs the action too, through a `cms-widget-run` event. The host
// announces the action's message and fills `price` itself, so a `result` shows nothing here.
// DOM is built with createElement only: no markup is ever parsed from data.

const LABELS = { en: 'Margin (%)', de: 'Marge (%)' };
const DEFAULT_MARGIN = '30';

class AcmePriceHelper extends HTMLElement {
  #margin = DEFAULT_MARGIN;
  #locale = 'en';
  #readOnly = false;
  #disabled = false;
  #invalid = false;
  #result = null;
  #text;
  #input;

  connectedCallback() {
    if (this.#input) return;
    this.classList.add('acme-price-helper');
    const label = Object.assign(document.createElement('label'), { className: 'acme-price-helper__label' });
    this.#text = Object.assign(document.createElement('span'), { className: 'acme-price-helper__text' });
    this.#input = Object.assign(document.createElement('input'), {
      type: 'text',
      inputMode: 'decimal',
      autocomplete: 'off',
      size: 6,
      className: 'acme-price-helper__input',
      value: this.#margin,
    });
    this.#input.addEventListener('input', () => {
      this.#margin = this.#input.value;
    });
    this.#input.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter' || event.isComposing) return;
      // Enter runs the helper; it never submits a surrounding form.
      event.preventDefault();
      if (this.#locked) return;
      this.dispatchEvent(new CustomEvent('cms-widget-run', { bubbles: true, detail: { payload: this.payload } }));
    });
    label.append(this.#text, ' ', this.#input);
    this.append(label);
    this.#render();
  }

  /** What the action receives: the margin as typed (the action checks it). */
  get payload() {
    return { margin: this.#margin.trim() };
  }

  /** The action's answer ({ fill, message, data }): the host shows the message and fills the price. */
  get result() {
    return this.#result;
  }

  set result(result) {
    this.#result = result ?? null;
  }

  get locale() {
    return this.#locale;
  }

  set locale(locale) {
    this.#locale = typeof locale === 'string' && locale !== '' ? locale : 'en';
    this.#render();
  }

  get readOnly() {
    return this.#readOnly;
  }

  set readOnly(readOnly) {
    this.#readOnly = Boolean(readOnly);
    this.#render();
  }

  get disabled() {
    return this.#disabled;
  }

  set disabled(disabled) {
    this.#disabled = Boolean(disabled);
    this.#render();
  }

  set invalid(invalid) {
    this.#invalid = Boolean(invalid);
    this.#render();
  }

  get #locked() {
    return this.#readOnly || this.#disabled;
  }

  #render() {
    if (!this.#input) return;
    this.#text.textContent = this.#locale.toLowerCase().startsWith('de') ? LABELS.de : LABELS.en;
    this.#input.readOnly = this.#locked;
    this.toggleAttribute('disabled', this.#locked);
    if (this.#invalid) this.#input.setAttribute('aria-invalid', 'true');
    else this.#input.removeAttribute('aria-invalid');
  }
}

if (!customElements.get('acme-price-helper')) customElements.define('acme-price-helper', AcmePriceHelper);
