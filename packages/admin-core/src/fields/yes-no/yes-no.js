// <cms-switch> and <cms-checkbox>: the client elements of the core's yes/no field types
// (docs/field-types.md, "switch and checkbox"). The admin application sets `value` (true, false,
// or null for a nullable column that holds nothing), `disabled` and `readOnly` (either keeps the
// box unchangeable) and `label` (the checkbox's accessible name); the element answers with a
// `change` event whose `detail.value` is the new boolean. DOM is built with createElement only.

class CmsYesNo extends HTMLElement {
  #value = null;
  #label = '';
  #readOnly = false;
  #input;

  connectedCallback() {
    if (this.#input) return;
    this.classList.add(this.localName);
    this.#input = Object.assign(document.createElement('input'), { type: 'checkbox' });
    if (this.localName === 'cms-switch') this.#input.setAttribute('role', 'switch');
    this.#input.addEventListener('change', () => {
      this.#value = this.#input.checked;
      this.#render();
      this.dispatchEvent(new CustomEvent('change', { bubbles: true, detail: { value: this.#value } }));
    });
    this.append(this.#input);
    this.#render();
  }

  get value() {
    return this.#value;
  }

  set value(value) {
    this.#value = typeof value === 'boolean' ? value : null;
    this.#render();
  }

  get disabled() {
    return this.hasAttribute('disabled');
  }

  set disabled(disabled) {
    this.toggleAttribute('disabled', Boolean(disabled));
    this.#render();
  }

  // A checkbox has no read-only state of its own: read-only keeps it disabled, like `disabled`.
  get readOnly() {
    return this.#readOnly;
  }

  set readOnly(readOnly) {
    this.#readOnly = Boolean(readOnly);
    this.#render();
  }

  get label() {
    return this.#label;
  }

  set label(label) {
    this.#label = typeof label === 'string' ? label : '';
    this.#render();
  }

  #render() {
    if (!this.#input) return;
    this.#input.checked = this.#value === true;
    // A nullable column without a value: neither on nor off until the admin picks one.
    this.#input.indeterminate = this.#value === null;
    this.#input.disabled = this.hasAttribute('disabled') || this.#readOnly;
    if (this.#label) this.#input.setAttribute('aria-label', this.#label);
    else this.#input.removeAttribute('aria-label');
  }
}

for (const name of ['cms-switch', 'cms-checkbox']) {
  if (!customElements.get(name)) customElements.define(name, class extends CmsYesNo {});
}
