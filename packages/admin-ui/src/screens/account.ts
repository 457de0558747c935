import { html, nothing, type TemplateResult } from 'lit';
import { ApiError } from '../api.ts';
import type { CmsApp } from '../app.ts';
import { LightElement } from '../element.ts';
import { AVATAR_TYPES, avatarProblem } from './account-logic.ts';
import './account-profile.ts';
import './account-tokens.ts';
import './account.css';

type Avatar = { url: string | null; thumb_url: string | null };

/** Says something in the account screen's live regions. */
export interface Announcer {
  announce(message: string, assertive?: boolean): void;
  /** Renders the screen again (its title marks unsaved changes). */
  requestUpdate(): void;
}

/**
 * The account screen (docs/admin-ui.md, "Account"): the signed-in admin's profile, password and
 * picture on `/account`; preferences (theme, language: applied at once, never an unsaved change)
 * and personal API tokens on `/account/preferences`.
 */
export class CmsAccount extends LightElement implements Announcer {
  app!: CmsApp;
  #section: 'profile' | 'preferences' = 'profile';
  status = '';
  alert = '';
  avatarError = '';
  uploading = false;
  #said = '';
  /** A new language (here or in the header's menu): every part of the screen says it again. */
  readonly #onLanguage = () => {
    this.requestUpdate();
    for (const part of this.querySelectorAll<LightElement>('cms-account-profile, cms-account-password, cms-account-tokens'))
      part.requestUpdate();
  };

  /** The route's section: the same element shows both, so a new one renders at once. */
  get section(): 'profile' | 'preferences' {
    return this.#section;
  }

  set section(section: 'profile' | 'preferences') {
    if (section === this.#section) return;
    this.#section = section;
    // What was said about the other section is not about this one.
    this.status = '';
    this.alert = '';
    this.requestUpdate();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.app.addEventListener('query-changed', this.#onLanguage);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.app.removeEventListener('query-changed', this.#onLanguage);
  }

  announce(message: string, assertive = false): void {
    // The same text twice is still said twice.
    const text = message === this.#said ? `${message}\u00a0` : message;
    this.#said = text;
    if (assertive) this.alert = text;
    else {
      this.status = text;
      this.alert = '';
    }
    this.requestUpdate();
  }

  override render(): TemplateResult {
    const app = this.app;
    const title = app.t('my_account');
    const dirty = this.section === 'profile' && app.guard?.dirty;
    document.title = dirty ? `• ${title}` : title;
    const link = (section: 'profile' | 'preferences', path: string, label: string) =>
      html`<li><a href="${app.boot.prefix}${path}" aria-current=${this.section === section ? 'page' : nothing}>${label}</a></li>`;
    return html`<h1 tabindex="-1">${title}</h1>
      <nav class="cms-account-sections" aria-label=${app.t('account_sections')}>
        <ul>
          ${link('profile', '/account', app.t('account_profile'))}
          ${link('preferences', '/account/preferences', app.t('account_preferences'))}
        </ul>
      </nav>
      <p class="cms-status" role="status">${this.status}</p>
      <p class="cms-status" role="alert">${this.alert}</p>
      ${
        this.section === 'profile'
          ? html`<cms-account-profile .app=${app} .screen=${this}></cms-account-profile>
            ${this.#avatar()}
            <cms-account-password .app=${app} .screen=${this}></cms-account-password>`
          : html`${this.#preferences()}<cms-account-tokens .app=${app} .screen=${this}></cms-account-tokens>`
      }`;
  }

  // ---- the picture ----

  #avatar(): TemplateResult {
    const app = this.app;
    const me = app.me!;
    const thumb = me.avatar.thumb_url;
    const describedBy = ['cms-avatar-hint', this.avatarError ? 'cms-avatar-error' : ''].filter(Boolean).join(' ');
    return html`<section class="cms-account-section" aria-labelledby="cms-avatar-title">
      <h2 id="cms-avatar-title">${app.t('avatar_title')}</h2>
      <div class="cms-avatar-row">
        ${
          thumb
            ? html`<img class="cms-avatar-large" src=${thumb} alt=${app.t('avatar_alt')} width="96" height="96" />`
            : html`<p class="cms-avatar-large cms-avatar-none">${app.t('avatar_none')}</p>`
        }
        <div>
          <label class="cms-label" for="cms-avatar-file">${thumb ? app.t('avatar_replace') : app.t('avatar_upload')}</label>
          <input
            id="cms-avatar-file"
            class="cms-file-input"
            type="file"
            accept=${AVATAR_TYPES.join(',')}
            ?disabled=${this.uploading}
            aria-describedby=${describedBy}
            aria-invalid=${this.avatarError ? 'true' : nothing}
            @change=${(event: Event) => void this.#upload(event.target as HTMLInputElement)}
          />
          <p class="cms-field-comment" id="cms-avatar-hint">${app.t('avatar_hint')}</p>
          ${this.avatarError ? html`<p class="cms-field-error" id="cms-avatar-error">${this.avatarError}</p>` : nothing}
          ${thumb ? html`<button type="button" class="cms-button cms-danger" ?disabled=${this.uploading} @click=${() => void this.#remove()}>${app.t('avatar_remove')}</button>` : nothing}
        </div>
      </div>
    </section>`;
  }

  async #upload(input: HTMLInputElement): Promise<void> {
    const app = this.app;
    const file = input.files?.[0];
    if (!file) return;
    const problem = avatarProblem(file);
    if (problem) {
      this.avatarError = problem === 'type' ? app.t('avatar_bad_type') : app.t('avatar_too_large');
      input.value = '';
      this.announce(this.avatarError, true);
      return;
    }
    this.avatarError = '';
    this.uploading = true;
    this.announce(app.t('avatar_uploading'));
    try {
      const avatar = await sendAvatar(app, file);
      this.#setAvatar(avatar);
      this.announce(app.t('avatar_saved'));
    } catch (error) {
      this.avatarError =
        error instanceof ApiError
          ? Object.values(error.details).flat().join(' ') || error.message || app.t('error_network')
          : app.t('error_network');
      this.announce(this.avatarError, true);
    }
    this.uploading = false;
    input.value = '';
    this.requestUpdate();
  }

  async #remove(): Promise<void> {
    const app = this.app;
    try {
      await app.api.call('DELETE', '/account/avatar');
      this.#setAvatar({ url: null, thumb_url: null });
      this.announce(app.t('avatar_removed'));
      // The button that had the focus is gone: the file input takes it.
      await this.updateComplete;
      this.querySelector<HTMLElement>('#cms-avatar-file')?.focus();
    } catch (error) {
      this.announce(app.failureMessage(error), true);
    }
  }

  /** The header's account menu shows the new picture at once. */
  #setAvatar(avatar: Avatar): void {
    const app = this.app;
    if (app.me) app.me = { ...app.me, avatar };
    app.requestUpdate();
    this.requestUpdate();
  }

  // ---- preferences ----

  #preferences(): TemplateResult {
    const app = this.app;
    const theme = document.documentElement.dataset.theme ?? 'auto';
    const save = async (change: { admin_theme?: string; admin_locale?: string }) => {
      try {
        await app.savePreferences(change);
        this.#onLanguage();
        this.announce(app.t('preferences_saved'));
      } catch (error) {
        this.announce(app.failureMessage(error), true);
      }
      this.requestUpdate();
    };
    return html`<section class="cms-account-section" aria-labelledby="cms-preferences-title">
      <h2 id="cms-preferences-title">${app.t('preferences_title')}</h2>
      <p class="cms-field-comment">${app.t('preferences_hint')}</p>
      <fieldset class="cms-fieldset">
        <legend>${app.t('theme')}</legend>
        ${app.boot.themes.map(
          (value) => html`<label class="cms-radio-option"
            ><input type="radio" name="cms-account-theme" .value=${value} .checked=${theme === value} @change=${() => void save({ admin_theme: value })} />
            ${app.t(`theme_${value}`)}</label
          >`,
        )}
      </fieldset>
      ${
        app.boot.locales.length > 1
          ? html`<p>
            <label class="cms-label" for="cms-account-locale">${app.t('language')}</label>
            <select
              id="cms-account-locale"
              class="cms-input"
              @change=${(event: Event) => void save({ admin_locale: (event.target as HTMLSelectElement).value })}
            >
              ${app.boot.locales.map((locale) => html`<option .value=${locale} ?selected=${app.i18n?.locale === locale}>${languageName(locale)}</option>`)}
            </select>
          </p>`
          : nothing
      }
    </section>`;
  }
}

/** `POST /account/avatar`, multipart `file_data`: the one call with a file, so not JSON; a 401 refreshes once. */
async function sendAvatar(app: CmsApp, file: File): Promise<Avatar> {
  const send = () => {
    app.api.assertAdmin();
    const body = new FormData();
    body.append('file_data', file);
    return fetch(`${app.boot.apiBase}/account/avatar`, {
      method: 'POST',
      body,
      credentials: 'same-origin',
      headers: { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
    });
  };
  let response: Response;
  try {
    response = await send();
    if (response.status === 401 && (await app.api.refresh())) response = await send();
  } catch (error) {
    throw error instanceof ApiError ? error : new ApiError(0, 'network', '');
  }
  const body = (await response.json().catch(() => null)) as {
    data?: Avatar;
    error?: { code?: string; message?: string; details?: Record<string, string[]> };
  } | null;
  if (response.ok && body?.data) return body.data;
  const error = body?.error;
  throw new ApiError(
    response.status,
    error?.code ?? 'malformed',
    error?.message ?? '',
    error?.details ?? {},
    response.headers.get('X-Request-Id'),
  );
}

/** A locale's name in its own language. */
function languageName(locale: string): string {
  try {
    return new Intl.DisplayNames([locale], { type: 'language' }).of(locale) ?? locale;
  } catch {
    return locale;
  }
}

customElements.define('cms-account', CmsAccount);

declare global {
  interface HTMLElementTagNameMap {
    'cms-account': CmsAccount;
  }
}
