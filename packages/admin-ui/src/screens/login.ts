import { html, nothing, type TemplateResult } from 'lit';
import type { CmsApp } from '../app.ts';
import { LightElement } from '../element.ts';
import { sweepDrafts } from '../form/drafts.ts';

/**
 * Sign-in (docs/admin-ui.md, "Sign-in"): a plain form that password managers fill
 * (`autocomplete`), over the cookie transport. A refused or throttled login shows the server's
 * message, in the admin's language. As a dialog (`dialog` attribute) it opens over a screen whose
 * session ended, and the screen underneath keeps everything typed into it.
 */
export class CmsLogin extends LightElement {
  app!: CmsApp;
  error = '';
  busy = false;

  override firstUpdated(): void {
    if (this.hasAttribute('dialog')) this.querySelector('dialog')?.showModal();
    else document.title = this.app.t('sign_in_title');
  }

  async #submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const data = new FormData(form);
    this.busy = true;
    this.error = '';
    this.requestUpdate();
    try {
      await this.app.api.login(String(data.get('login') ?? ''), String(data.get('password') ?? ''));
      // Drafts past their day go at every sign-in (docs/admin-ui.md, "Edits are never lost"); the sign-in screen's start sweeps them.
      if (this.hasAttribute('dialog')) {
        sweepDrafts();
        this.querySelector('dialog')?.close();
        this.app.requestUpdate();
      } else {
        await this.app.signedIn();
      }
    } catch (error) {
      this.error = this.app.failureMessage(error);
      this.busy = false;
      this.requestUpdate();
      await this.updateComplete;
      this.querySelector<HTMLElement>('[role=alert]')?.focus();
    }
  }

  #form(): TemplateResult {
    const t = (key: string) => this.app.t(key);
    return html`<form class="cms-login-form" @submit=${(event: SubmitEvent) => void this.#submit(event)} aria-describedby=${this.error ? 'cms-login-error' : nothing}>
      ${this.error ? html`<p id="cms-login-error" class="cms-alert" role="alert" tabindex="-1">${this.error}</p>` : nothing}
      <label for="cms-login-name">${t('login_label')}</label>
      <input id="cms-login-name" name="login" autocomplete="username" required autocapitalize="none" spellcheck="false" />
      <label for="cms-login-password">${t('password_label')}</label>
      <input id="cms-login-password" name="password" type="password" autocomplete="current-password" required />
      <button type="submit" class="cms-button cms-primary" ?disabled=${this.busy}>${t('sign_in')}</button>
    </form>`;
  }

  override render(): TemplateResult {
    if (this.hasAttribute('dialog')) {
      return html`<dialog class="cms-dialog" aria-labelledby="cms-session-title" @cancel=${(event: Event) => event.preventDefault()}>
        <h2 id="cms-session-title">${this.app.t('session_ended_title')}</h2>
        <p>${this.app.t('session_ended_text')}</p>
        ${this.#form()}
      </dialog>`;
    }
    return html`<main class="cms-login" id="cms-main">
      <h1 tabindex="-1">${this.app.t('sign_in_title')}</h1>
      ${this.#form()}
    </main>`;
  }
}

customElements.define('cms-login', CmsLogin);
