import { LitElement, type TemplateResult, html } from 'lit';
import type { CmsApp } from '../app.ts';

/** The reorder screen of a controller (docs/admin-ui.md, "Reorder"). */
export class CmsReorder extends LitElement {
  static override properties = { ctl: { attribute: false } };
  app!: CmsApp;
  ctl = '';

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  override render(): TemplateResult {
    return html`<h1 tabindex="-1">${this.app.t('loading')}</h1>`;
  }
}

customElements.define('cms-reorder', CmsReorder);

declare global {
  interface HTMLElementTagNameMap {
    'cms-reorder': CmsReorder;
  }
}
