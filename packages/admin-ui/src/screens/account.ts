import { LitElement, type TemplateResult, html } from 'lit';
import type { CmsApp } from '../app.ts';

/** The account screen: profile, password, avatar, preferences, API tokens (docs/admin-ui.md, "Account"). */
export class CmsAccount extends LitElement {
  static override properties = { section: { attribute: false } };
  app!: CmsApp;
  section: 'profile' | 'preferences' = 'profile';

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  override render(): TemplateResult {
    return html`<h1 tabindex="-1">${this.app.t('loading')}</h1>`;
  }
}

customElements.define('cms-account', CmsAccount);

declare global {
  interface HTMLElementTagNameMap {
    'cms-account': CmsAccount;
  }
}
