import { html, nothing, type TemplateResult } from 'lit';
import { ApiError } from '../api.ts';
import type { components } from '../api/schema.d.ts';
import type { CmsApp } from '../app.ts';
import { LightElement } from '../element.ts';
import { TOKEN_NAME_MAX, tokenDays } from './account-logic.ts';
import type { Announcer } from './account.ts';

type Token = components['schemas']['ApiToken'];
type CreatedToken = components['schemas']['CreatedApiToken'];

/**
 * Personal API tokens (docs/auth.md, "Personal API tokens"; docs/admin-ui.md, "Account"): the
 * list (prefix, created, expires, last used), a new token with a name and an optional expiry in
 * days, shown once in a dialog with a copy button, and revoking with a confirmation.
 */
export class AccountTokens extends LightElement {
  app!: CmsApp;
  screen!: Announcer;
  tokens: Token[] | undefined;
  failure = '';
  errors: Record<string, string[]> = {};
  creating = false;
  /** The token just created, while its dialog is open: gone from the page once closed. */
  created: CreatedToken | undefined;
  /** The token whose revocation is being confirmed. */
  revoking: Token | undefined;

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  async load(): Promise<void> {
    this.failure = '';
    try {
      this.tokens = (await this.app.api.call<Token[]>('GET', '/account/tokens')).data;
    } catch (error) {
      this.failure = this.app.failureMessage(error);
    }
    this.requestUpdate();
  }

  async #create(form: HTMLFormElement): Promise<void> {
    const app = this.app;
    const read = (name: string) => (form.elements.namedItem(name) as HTMLInputElement).value;
    const name = read('name').trim();
    const days = tokenDays(read('expires_in_days'));
    const errors: Record<string, string[]> = {};
    if (!name) errors.name = [app.t('token_name_required')];
    if (days === 'invalid') errors.expires_in_days = [app.t('token_days_invalid')];
    this.errors = errors;
    if (Object.keys(errors).length) return this.#focusError();
    this.creating = true;
    this.requestUpdate();
    try {
      const answer = await app.api.call<CreatedToken>('POST', '/account/tokens', { body: { name, expires_in_days: days } });
      const { token: _shownOnce, ...summary } = answer.data;
      this.tokens = [summary, ...(this.tokens ?? [])];
      this.created = answer.data;
      form.reset();
      this.requestUpdate();
      await this.updateComplete;
      this.querySelector<HTMLDialogElement>('#cms-token-created')?.showModal();
      this.screen.announce(app.t('token_created', { name }));
    } catch (error) {
      if (error instanceof ApiError && error.status === 422 && Object.keys(error.details).length) {
        this.errors = error.details;
        await this.#focusError();
      } else this.screen.announce(app.failureMessage(error), true);
    }
    this.creating = false;
    this.requestUpdate();
  }

  async #focusError(): Promise<void> {
    this.requestUpdate();
    await this.updateComplete;
    this.querySelector<HTMLElement>('form [aria-invalid="true"]')?.focus();
    this.screen.announce(Object.values(this.errors).flat().join(' '), true);
  }

  /** The created token's dialog closed (its button or Esc): the token leaves the page; focus goes back to the create button. */
  #createdClosed(): void {
    this.created = undefined;
    this.requestUpdate();
    this.querySelector<HTMLElement>('#cms-token-create')?.focus();
  }

  async #copy(): Promise<void> {
    const app = this.app;
    const input = this.querySelector<HTMLTextAreaElement>('#cms-token-value');
    if (!this.created || !input) return;
    try {
      await navigator.clipboard.writeText(this.created.token);
      this.screen.announce(app.t('token_copied'));
    } catch {
      // Without the clipboard the token is selected, for the keyboard's copy.
      input.select();
      this.screen.announce(app.t('token_copy_failed'));
    }
  }

  #askRevoke(token: Token): void {
    this.revoking = token;
    this.requestUpdate();
    void this.updateComplete.then(() => this.querySelector<HTMLDialogElement>('#cms-token-revoke')?.showModal());
  }

  async #revoke(): Promise<void> {
    const app = this.app;
    const token = this.revoking;
    this.querySelector<HTMLDialogElement>('#cms-token-revoke')?.close();
    if (!token) return;
    try {
      await app.api.call('DELETE', `/account/tokens/${token.id}`);
      this.screen.announce(app.t('token_revoked', { name: token.name }));
    } catch (error) {
      // Already gone (revoked elsewhere): the list says so once read again.
      if (!(error instanceof ApiError && error.status === 404)) this.screen.announce(app.failureMessage(error), true);
    }
    await this.load();
    this.querySelector<HTMLElement>('#cms-token-name')?.focus();
  }

  override render(): TemplateResult {
    const app = this.app;
    const field = (name: string, label: string, hint: string, attributes: { maxlength?: number; inputmode?: string }) => {
      const id = name === 'name' ? 'cms-token-name' : 'cms-token-days';
      const errors = this.errors[name];
      const describedBy = [hint ? `${id}-hint` : '', errors?.length ? `${id}-error` : ''].filter(Boolean).join(' ');
      return html`<p class="cms-account-field">
        <label class="cms-label" for=${id}>${label}</label>
        <input
          id=${id}
          name=${name}
          class="cms-input"
          type="text"
          autocomplete="off"
          maxlength=${attributes.maxlength ?? nothing}
          inputmode=${attributes.inputmode ?? nothing}
          aria-invalid=${errors?.length ? 'true' : nothing}
          aria-describedby=${describedBy || nothing}
        />
        ${hint ? html`<span class="cms-field-comment" id="${id}-hint">${hint}</span>` : nothing}
        ${errors?.length ? html`<span class="cms-field-error" id="${id}-error">${errors.join(' ')}</span>` : nothing}
      </p>`;
    };
    return html`<section class="cms-account-section" aria-labelledby="cms-tokens-title">
        <h2 id="cms-tokens-title">${app.t('tokens_title')}</h2>
        <p class="cms-field-comment">${app.t('tokens_hint')}</p>
        <form
          class="cms-account-form"
          novalidate
          aria-labelledby="cms-token-new-title"
          @submit=${(event: Event) => {
            event.preventDefault();
            void this.#create(event.target as HTMLFormElement);
          }}
        >
          <h3 id="cms-token-new-title">${app.t('token_new')}</h3>
          ${field('name', app.t('token_name'), '', { maxlength: TOKEN_NAME_MAX })}
          ${field('expires_in_days', app.t('token_days'), app.t('token_days_hint'), { inputmode: 'numeric' })}
          <p class="cms-form-buttons">
            <button id="cms-token-create" type="submit" class="cms-button cms-primary" ?disabled=${this.creating}>${app.t('token_create')}</button>
          </p>
        </form>
        ${this.#list()}
      </section>
      ${this.#createdDialog()} ${this.#revokeDialog()}`;
  }

  #list(): TemplateResult {
    const app = this.app;
    if (this.failure)
      return html`<div class="cms-alert" role="alert">
        <p>${this.failure}</p>
        <button type="button" class="cms-button" @click=${() => void this.load()}>${app.t('retry')}</button>
      </div>`;
    const tokens = this.tokens;
    if (!tokens) return html`<p>${app.t('loading')}</p>`;
    if (!tokens.length) return html`<p class="cms-empty">${app.t('tokens_none')}</p>`;
    const date = (value: string | null) => (value ? app.i18n!.date(value, true) : app.t('token_never'));
    const expires = (value: string | null) =>
      value && Date.parse(value) <= Date.now() ? app.t('token_expired', { date: date(value) }) : date(value);
    return html`<div class="cms-table-wrap">
      <table class="cms-table cms-tokens">
        <caption>
          ${app.t('tokens_list')}
        </caption>
        <thead>
          <tr>
            <th scope="col">${app.t('token_name')}</th>
            <th scope="col">${app.t('token_prefix')}</th>
            <th scope="col">${app.t('token_created_at')}</th>
            <th scope="col">${app.t('token_expires_at')}</th>
            <th scope="col">${app.t('token_last_used')}</th>
            <th scope="col"><span class="cms-visually-hidden">${app.t('token_actions')}</span></th>
          </tr>
        </thead>
        <tbody>
          ${tokens.map(
            (token) => html`<tr>
              <th scope="row">${token.name}</th>
              <td><code>${token.token_prefix}…</code></td>
              <td>${date(token.created_at)}</td>
              <td>${expires(token.expires_at)}</td>
              <td>${date(token.last_used_at)}</td>
              <td>
                <button type="button" class="cms-button cms-danger" aria-label=${app.t('token_revoke_of', { name: token.name })} @click=${() => this.#askRevoke(token)}>
                  ${app.t('token_revoke')}
                </button>
              </td>
            </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
  }

  #createdDialog(): TemplateResult {
    const app = this.app;
    const created = this.created;
    return html`<dialog
      id="cms-token-created"
      class="cms-dialog"
      aria-labelledby="cms-token-created-title"
      aria-describedby="cms-token-created-text"
      @close=${() => this.#createdClosed()}
    >
      <h2 id="cms-token-created-title">${app.t('token_created_title')}</h2>
      <p id="cms-token-created-text" class="cms-token-warning">${app.t('token_once')}</p>
      ${
        created
          ? html`<p>
            <label class="cms-label" for="cms-token-value">${app.t('token_value', { name: created.name })}</label>
            <textarea
              id="cms-token-value"
              class="cms-input cms-token-value"
              rows="2"
              readonly
              spellcheck="false"
              .value=${created.token}
              @focus=${(event: Event) => (event.target as HTMLTextAreaElement).select()}
            ></textarea>
          </p>`
          : nothing
      }
      <p class="cms-dialog-buttons">
        <button type="button" class="cms-button" @click=${() => void this.#copy()}>${app.t('token_copy')}</button>
        <button type="button" class="cms-button cms-primary" @click=${() => this.querySelector<HTMLDialogElement>('#cms-token-created')?.close()}>
          ${app.t('token_done')}
        </button>
      </p>
    </dialog>`;
  }

  #revokeDialog(): TemplateResult {
    const app = this.app;
    return html`<dialog
      id="cms-token-revoke"
      class="cms-dialog"
      aria-labelledby="cms-token-revoke-text"
      @close=${() => {
        this.revoking = undefined;
      }}
    >
      <p id="cms-token-revoke-text">${this.revoking ? app.t('token_revoke_confirm', { name: this.revoking.name }) : ''}</p>
      <p class="cms-dialog-buttons">
        <button type="button" class="cms-button" @click=${() => this.querySelector<HTMLDialogElement>('#cms-token-revoke')?.close()}>${app.t('cancel')}</button>
        <button type="button" class="cms-button cms-danger" @click=${() => void this.#revoke()}>${app.t('token_revoke')}</button>
      </p>
    </dialog>`;
  }
}

customElements.define('cms-account-tokens', AccountTokens);

declare global {
  interface HTMLElementTagNameMap {
    'cms-account-tokens': AccountTokens;
  }
}
