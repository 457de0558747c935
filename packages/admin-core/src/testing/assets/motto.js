// Test element of the tfx/lab `motto` field type.
customElements.define('tfx-motto', class extends HTMLElement {});
