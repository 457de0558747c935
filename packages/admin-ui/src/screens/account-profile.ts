import { html, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import { ApiError } from '../api.ts';
import type { CmsApp, LeaveGuard } from '../app.ts';
import { LightElement } from '../element.ts';
import type { Profile } from '../types.ts';
import { EMAIL_MAX, emailProblem } from './account-logic.ts';
import type { Announcer } from './account.ts';

const FIELDS = ['first_name', 'last_name', 'email', 'subtitle'] as const;
type Name = (typeof FIELDS)[number];
type Values = Record<Name, string>;

const valuesOf = (me: Profile): Values => ({ first_name: me.first_name, last_name: me.last_name, email: me.email, subtitle: me.subtitle });

/** A field's messages under it, with the ids `aria-describedby` points at. */
function errorView(id: string, messages: readonly string[] | undefined): TemplateResult | typeof nothing {
  return messages?.length ? html`<p class="cms-field-error" id="${id}-error">${messages.join(' ')}</p>` : nothing;
}

/**
 * The profile (docs/admin-ui.md, "Account"): names, email and subtitle, saved with `PUT /account`.
 * Its changes are guarded like a form's (the app's one guard, `beforeunload` while changed); a
 * 422 (a bad or taken email) shows under its field.
 */
export class AccountProfile extends LightElement implements LeaveGuard {
  app!: CmsApp;
  screen!: Announcer;
  base!: Values;
  values!: Values;
  errors: Record<string, string[]> = {};
  saving = false;
  readonly #onBeforeUnload = (event: BeforeUnloadEvent) => {
    event.preventDefault();
    event.returnValue = '';
  };

  override connectedCallback(): void {
    super.connectedCallback();
    this.base = valuesOf(this.app.me!);
    this.values = { ...this.base };
    this.app.guard = this;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    if (this.app.guard === this) this.app.guard = undefined;
    window.removeEventListener('beforeunload', this.#onBeforeUnload);
  }

  get dirty(): boolean {
    return FIELDS.some((name) => this.values[name].trim() !== this.base[name].trim());
  }

  discard(): void {
    this.values = { ...this.base };
    this.errors = {};
    this.#changed();
  }

  #set(name: Name, value: string): void {
    this.values = { ...this.values, [name]: value };
    this.#changed();
  }

  #changed(): void {
    if (this.dirty) window.addEventListener('beforeunload', this.#onBeforeUnload);
    else window.removeEventListener('beforeunload', this.#onBeforeUnload);
    this.requestUpdate();
    // The screen's title carries the "•" of unsaved changes.
    this.screen.requestUpdate();
  }

  async save(_close: boolean): Promise<boolean> {
    if (this.saving) return false;
    const app = this.app;
    const problem = emailProblem(this.values.email);
    if (problem) {
      this.errors = {
        email: [problem === 'required' ? app.t('email_required') : problem === 'length' ? app.t('email_length') : app.t('email_format')],
      };
      await this.#focusError();
      return false;
    }
    this.saving = true;
    this.requestUpdate();
    try {
      const body = Object.fromEntries(FIELDS.map((name) => [name, this.values[name].trim()]));
      const answer = await app.api.call<Profile>('PUT', '/account', { body });
      this.errors = {};
      app.me = answer.data;
      this.base = valuesOf(answer.data);
      this.values = { ...this.base };
      app.requestUpdate();
      this.screen.announce(app.t('profile_saved'));
      return true;
    } catch (error) {
      if (error instanceof ApiError && error.status === 422 && Object.keys(error.details).length) {
        this.errors = error.details;
        await this.#focusError();
      } else this.screen.announce(app.failureMessage(error), true);
      return false;
    } finally {
      this.saving = false;
      this.#changed();
    }
  }

  /** The first refused field takes the focus; its message is under it and read with it. */
  async #focusError(): Promise<void> {
    this.requestUpdate();
    await this.updateComplete;
    this.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
    this.screen.announce(Object.values(this.errors).flat().join(' '), true);
  }

  override render(): TemplateResult {
    const app = this.app;
    const input = (name: Name, label: string, attributes: { type?: string; autocomplete: string; required?: boolean }) => {
      const id = `cms-account-${name}`;
      const errors = this.errors[name];
      return html`<p class="cms-account-field">
        <label class="cms-label" for=${id}>${label}${attributes.required ? html`<span class="cms-required" aria-hidden="true">*</span>` : nothing}</label>
        <input
          id=${id}
          class="cms-input"
          type=${attributes.type ?? 'text'}
          autocomplete=${attributes.autocomplete}
          maxlength=${name === 'email' ? EMAIL_MAX : 255}
          ?required=${attributes.required}
          .value=${live(this.values[name])}
          aria-invalid=${errors?.length ? 'true' : nothing}
          aria-describedby=${errors?.length ? `${id}-error` : nothing}
          @input=${(event: Event) => this.#set(name, (event.target as HTMLInputElement).value)}
        />
        ${errorView(id, errors)}
      </p>`;
    };
    const unplaced = Object.entries(this.errors).filter(([key]) => !(FIELDS as readonly string[]).includes(key));
    return html`<section class="cms-account-section" aria-labelledby="cms-profile-title">
      <h2 id="cms-profile-title">${app.t('account_profile')}</h2>
      <p class="cms-muted">${app.t('account_login', { login: app.me!.login })}</p>
      ${unplaced.length ? html`<div class="cms-alert" role="alert">${unplaced.flatMap(([, messages]) => messages).join(' ')}</div>` : nothing}
      <form
        class="cms-account-form"
        novalidate
        @submit=${(event: Event) => {
          event.preventDefault();
          void this.save(false);
        }}
      >
        ${input('first_name', app.t('first_name'), { autocomplete: 'given-name' })}
        ${input('last_name', app.t('last_name'), { autocomplete: 'family-name' })}
        ${input('email', app.t('email'), { type: 'email', autocomplete: 'email', required: true })}
        ${input('subtitle', app.t('subtitle'), { autocomplete: 'organization-title' })}
        <p class="cms-form-buttons">
          <button type="submit" class="cms-button cms-primary" ?disabled=${this.saving}>${app.t('profile_save')}</button>
          <span class="cms-muted cms-dirty-note">${this.dirty ? app.t('unsaved_changes') : ''}</span>
        </p>
      </form>
    </section>`;
  }
}

/**
 * The password change (docs/auth.md, "Passwords"): the current password and the new one twice.
 * The server rotates the session cookie, so the admin stays signed in; every other session ends.
 */
export class AccountPassword extends LightElement {
  app!: CmsApp;
  screen!: Announcer;
  errors: Record<string, string[]> = {};
  saving = false;

  async #submit(form: HTMLFormElement): Promise<void> {
    const app = this.app;
    const read = (name: string) => (form.elements.namedItem(name) as HTMLInputElement).value;
    const current = read('current_password');
    const password = read('password');
    const errors: Record<string, string[]> = {};
    if (!current) errors.current_password = [app.t('password_current_required')];
    if (!password) errors.password = [app.t('password_new_required')];
    else if (password !== read('password_repeat')) errors.password_repeat = [app.t('password_mismatch')];
    this.errors = errors;
    if (Object.keys(errors).length) return this.#focusError();
    this.saving = true;
    this.requestUpdate();
    try {
      const answer = await app.api.call<Profile>('PUT', '/account', {
        body: { email: app.me!.email, password, current_password: current },
      });
      app.me = answer.data;
      form.reset();
      this.screen.announce(app.t('password_changed'));
    } catch (error) {
      if (error instanceof ApiError && error.status === 422 && Object.keys(error.details).length) {
        this.errors = error.details;
        await this.#focusError();
      } else this.screen.announce(app.failureMessage(error), true);
    }
    this.saving = false;
    this.requestUpdate();
  }

  async #focusError(): Promise<void> {
    this.requestUpdate();
    await this.updateComplete;
    this.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
    this.screen.announce(Object.values(this.errors).flat().join(' '), true);
  }

  override render(): TemplateResult {
    const app = this.app;
    const input = (name: string, label: string, autocomplete: string) => {
      const id = `cms-account-${name}`;
      const errors = this.errors[name];
      return html`<p class="cms-account-field">
        <label class="cms-label" for=${id}>${label}</label>
        <input
          id=${id}
          name=${name}
          class="cms-input"
          type="password"
          autocomplete=${autocomplete}
          aria-invalid=${errors?.length ? 'true' : nothing}
          aria-describedby=${errors?.length ? `${id}-error` : nothing}
        />
        ${errorView(id, errors)}
      </p>`;
    };
    const unplaced = Object.entries(this.errors).filter(([key]) => !['current_password', 'password', 'password_repeat'].includes(key));
    return html`<section class="cms-account-section" aria-labelledby="cms-password-title">
      <h2 id="cms-password-title">${app.t('password_change_title')}</h2>
      <p class="cms-field-comment">${app.t('password_change_hint')}</p>
      ${unplaced.length ? html`<div class="cms-alert" role="alert">${unplaced.flatMap(([, messages]) => messages).join(' ')}</div>` : nothing}
      <form
        class="cms-account-form"
        novalidate
        @submit=${(event: Event) => {
          event.preventDefault();
          void this.#submit(event.target as HTMLFormElement);
        }}
      >
        <input type="text" name="username" autocomplete="username" .value=${app.me!.login} hidden />
        ${input('current_password', app.t('password_current'), 'current-password')}
        ${input('password', app.t('password_new'), 'new-password')}
        ${input('password_repeat', app.t('password_repeat'), 'new-password')}
        <p class="cms-form-buttons">
          <button type="submit" class="cms-button cms-primary" ?disabled=${this.saving}>${app.t('password_change')}</button>
        </p>
      </form>
    </section>`;
  }
}

customElements.define('cms-account-profile', AccountProfile);
customElements.define('cms-account-password', AccountPassword);

declare global {
  interface HTMLElementTagNameMap {
    'cms-account-profile': AccountProfile;
    'cms-account-password': AccountPassword;
  }
}
