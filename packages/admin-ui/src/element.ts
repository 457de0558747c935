import { LitElement } from 'lit';

/**
 * The base of every element of the application: rendered into light DOM (docs/admin-ui.md, "What it
 * is built with, and why"), so ID references, the one stylesheet and axe reach everything. State lives in
 * plain fields and `requestUpdate()` is called when it changes.
 */
export class LightElement extends LitElement {
  protected override createRenderRoot(): HTMLElement {
    return this;
  }
}
