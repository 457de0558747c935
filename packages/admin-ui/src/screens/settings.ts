import { LitElement, type TemplateResult, html } from 'lit';
import type { CmsApp } from '../app.ts';

/** The settings index and a settings form (docs/admin-ui.md, "Settings"). */
export class CmsSettings extends LitElement {
  static override properties = { code: { attribute: false } };
  app!: CmsApp;
  code: string | undefined;

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  override render(): TemplateResult {
    return html`<h1 tabindex="-1">${this.app.t('loading')}</h1>`;
  }
}

customElements.define('cms-settings', CmsSettings);

declare global {
  interface HTMLElementTagNameMap {
    'cms-settings': CmsSettings;
  }
}
