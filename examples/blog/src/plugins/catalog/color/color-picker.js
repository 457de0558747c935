// <acme-color-picker>: the client element of the acme/catalog `color` field type.
// The admin application sets `value` (a "#rrggbb" string or null), `typeOptions` ({ palette })
// and, on an existing record, `uploadUrl` (POST /{ctl}/{id}/fields/{field}/upload); `label` names
// the inner controls for assistive technology, `disabled` and `readOnly` (either) lock them. The
// element answers with a `change` event whose `detail.value` is the new colour (null when cleared).
// DOM is built with createElement only: no markup is ever parsed from data.

const LONG = /^#[0-9a-f]{6}$/i;

class AcmeColorPicker extends HTMLElement {
  #value = null;
  #options = {};
  #label = '';
  #readOnly = false;
  #disabled = false;
  #input;
  #clear;
  #swatches;
  #file;
  #message;

  connectedCallback() {
    if (this.#input) return;
    this.classList.add('acme-color-picker');
    this.#input = Object.assign(document.createElement('input'), { type: 'color', className: 'acme-color-picker__input' });
    this.#input.addEventListener('input', () => this.#set(this.#input.value));
    this.#clear = Object.assign(document.createElement('button'), {
      type: 'button',
      className: 'acme-color-picker__clear',
      textContent: '×',
    });
    this.#clear.setAttribute('aria-label', 'Clear');
    this.#clear.addEventListener('click', () => this.#set(null));
    this.#swatches = Object.assign(document.createElement('div'), { className: 'acme-color-picker__swatches' });
    this.#file = Object.assign(document.createElement('input'), {
      type: 'file',
      accept: 'image/png,image/jpeg,image/gif,image/webp',
      className: 'acme-color-picker__file',
    });
    this.#file.addEventListener('change', () => this.#upload());
    this.#message = Object.assign(document.createElement('span'), { className: 'acme-color-picker__message' });
    this.append(this.#input, this.#clear, this.#swatches, this.#file, this.#message);
    this.#render();
  }

  get value() {
    return this.#value;
  }

  set value(value) {
    this.#value = typeof value === 'string' && LONG.test(value) ? value.toLowerCase() : null;
    this.#render();
  }

  set typeOptions(options) {
    this.#options = options && typeof options === 'object' ? options : {};
    this.#render();
  }

  get uploadUrl() {
    return this.getAttribute('upload-url');
  }

  set uploadUrl(url) {
    if (url) this.setAttribute('upload-url', url);
    else this.removeAttribute('upload-url');
    this.#render();
  }

  get label() {
    return this.#label;
  }

  set label(label) {
    this.#label = typeof label === 'string' ? label : '';
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

  get #locked() {
    return this.#readOnly || this.#disabled;
  }

  #set(value) {
    if (this.#locked) return;
    this.value = value;
    this.dispatchEvent(new CustomEvent('change', { bubbles: true, detail: { value: this.#value } }));
  }

  async #upload() {
    const file = this.#file.files?.[0];
    if (!file || !this.uploadUrl) return;
    const body = new FormData();
    body.append('file', file);
    this.#message.textContent = '';
    const response = await fetch(this.uploadUrl, {
      method: 'POST',
      body,
      credentials: 'same-origin',
      headers: { 'X-Requested-With': 'XMLHttpRequest' },
    });
    const answer = await response.json().catch(() => ({}));
    if (response.ok && typeof answer.data?.color === 'string') this.#set(answer.data.color);
    else this.#message.textContent = Object.values(answer.error?.details ?? {}).flat()[0] ?? answer.error?.message ?? '';
    this.#file.value = '';
  }

  #render() {
    if (!this.#input) return;
    this.#input.value = this.#value ?? '#000000';
    this.toggleAttribute('data-empty', this.#value === null);
    this.#file.hidden = !this.uploadUrl;
    const locked = this.#locked;
    this.toggleAttribute('disabled', locked);
    for (const control of [this.#input, this.#clear, this.#file]) control.disabled = locked;
    this.#name(this.#input, this.#label);
    this.#name(this.#file, this.#label && `${this.#label}: image`);
    const palette = Array.isArray(this.#options.palette) ? this.#options.palette : [];
    // A swatch that had the focus keeps it across the rebuild (keyboard users stay where they were).
    const focused = this.#swatches.contains(document.activeElement) ? document.activeElement.title : undefined;
    this.#swatches.replaceChildren(
      ...palette.map((color) => {
        const swatch = Object.assign(document.createElement('button'), {
          type: 'button',
          className: 'acme-color-picker__swatch',
          title: color,
        });
        swatch.style.setProperty('--swatch', color);
        swatch.setAttribute('aria-pressed', String(color === this.#value));
        swatch.disabled = locked;
        swatch.addEventListener('click', () => this.#set(color));
        return swatch;
      }),
    );
    if (focused) [...this.#swatches.children].find((swatch) => swatch.title === focused)?.focus();
  }

  /** The accessible name of an inner control: the field's label, or none. */
  #name(control, name) {
    if (name) control.setAttribute('aria-label', name);
    else control.removeAttribute('aria-label');
  }
}

if (!customElements.get('acme-color-picker')) customElements.define('acme-color-picker', AcmeColorPicker);
