// Test element of the tfx/lab `stamp` field type.
customElements.define('tfx-stamp', class extends HTMLElement {});
