import { html, nothing, type TemplateResult } from 'lit';
import { keyed } from 'lit/directives/keyed.js';
import { Api, ApiError } from './api.ts';
import type { Boot } from './boot.ts';
import { LightElement } from './element.ts';
import { I18n, type PluralForms } from './i18n.ts';
import { parseRoute, type Route, safeNext } from './router.ts';
import type { NavigationEntry, Profile } from './types.ts';
import './screens/login.ts';
import './screens/list.ts';
import { removeAllDrafts, sweepDrafts } from './form/drafts.ts';

/**
 * A screen holding changes the admin could lose (docs/admin-ui.md, "Edits are never lost"): every
 * way out of it asks first — in-app links, Back and Forward, reload and closing the tab, signing out.
 */
export interface LeaveGuard {
  readonly dirty: boolean;
  /** Saves; true when saved. */
  save(close: boolean): Promise<boolean>;
  /** Forgets the changes (and their draft). */
  discard(): void;
}

type Theme = 'light' | 'dark' | 'auto';

/**
 * The application (docs/admin-ui.md): boots from the shell's JSON, signs in, loads the strings,
 * the navigation and the profile, then renders the screen of the current route inside the shell
 * (header, navigation, main). Routes change through `navigate`; every change moves focus to the
 * page's heading. A session that ends while working opens a sign-in dialog over the screen.
 */
export class CmsApp extends LightElement {
  boot!: Boot;
  api!: Api;
  i18n: I18n | undefined;
  me: Profile | undefined;
  nav: NavigationEntry[] = [];
  route: Route = { name: 'dashboard' };
  /** A failure of the boot itself: shown with a retry. */
  failure: ApiError | undefined;
  /** Set when the served version changed under this tab (a deploy). */
  staleVersion = false;
  /** The screen with changes that a way out must ask about. */
  guard: LeaveGuard | undefined;
  /** The unsaved-changes question, while it is asked. */
  #leaving: { resolve: (leave: boolean) => void } | undefined;
  /** A message for the next screen (a save that moved on, a delete). */
  #flash: string | undefined;
  /** The form screens' chunk, loaded on first use. */
  #formLoaded = false;
  readonly #screensLoaded = new Set<string>();
  /** The URL shown, to restore when Back or Forward is refused. */
  #shownUrl = location.pathname + location.search;
  #focusAfterRender = false;
  /** Another admin signed in: nothing of the previous admin's screen is shown until the new shell is there. */
  #resetting = false;

  override connectedCallback(): void {
    super.connectedCallback();
    this.api = new Api(this.boot);
    this.api.addEventListener('session-ended', () => this.requestUpdate());
    this.api.addEventListener('signed-out', () => this.#signedOut());
    this.api.addEventListener('admin-changed', () => void this.#adminChanged());
    // Drafts past their day go while the tab stays open too, not only when a page starts.
    setInterval(sweepDrafts, SWEEP_EVERY_MS);
    this.api.addEventListener('signed-in-elsewhere', () => {
      if (this.route.name === 'login') void this.start();
      else this.requestUpdate();
    });
    this.api.addEventListener('version-changed', () => {
      this.staleVersion = true;
      this.requestUpdate();
    });
    window.addEventListener('popstate', () => void this.#onPopState());
    this.addEventListener('click', (event) => this.#onClick(event));
    // A chunk that fails to load (a deploy removed it) offers the same reload.
    window.addEventListener('vite:preloadError', (event) => {
      event.preventDefault();
      this.staleVersion = true;
      this.requestUpdate();
    });
    void this.start();
  }

  /**
   * Loads strings and session state, then shows the route (or the sign-in with `next`). Focus
   * moves to the heading after a sign-in, not on the first load of the page (where the skip link
   * comes first).
   */
  async start(focus = false): Promise<void> {
    this.failure = undefined;
    this.route = parseRoute(location.pathname, this.boot.prefix);
    try {
      this.me = await this.#loadProfile();
      sweepDrafts();
      // The strings and the navigation at once: neither waits for the other.
      const [, nav] = await Promise.all([
        this.loadStrings(this.me?.preferences.admin_locale ?? this.boot.locale),
        this.me ? this.api.navigation() : Promise.resolve([]),
      ]);
      this.nav = nav;
      this.applyTheme((this.me?.preferences.admin_theme as Theme | null) ?? 'auto');
      if (!this.me) {
        if (this.route.name !== 'login') {
          const next = location.pathname + location.search;
          const query = next === this.boot.prefix || next === `${this.boot.prefix}/` ? '' : `?next=${encodeURIComponent(next)}`;
          history.replaceState(null, '', `${this.boot.prefix}/login${query}`);
          this.route = { name: 'login' };
        }
      } else {
        this.api.resumeSchedule();
        if (this.route.name === 'login') this.navigate(safeNext(new URLSearchParams(location.search).get('next'), this.boot.prefix), true);
      }
    } catch (error) {
      this.failure = error instanceof ApiError ? error : new ApiError(0, 'network', String(error));
    }
    this.#resetting = false;
    this.#focusAfterRender = focus;
    this.requestUpdate();
  }

  async #loadProfile(): Promise<Profile | undefined> {
    return this.api.me();
  }

  async loadStrings(locale: string): Promise<void> {
    const { strings, locale: resolved } = await this.api.strings(locale);
    this.i18n = new I18n(resolved, strings as Record<string, PluralForms>);
    document.documentElement.lang = resolved;
    document.documentElement.dir = this.i18n.dir;
  }

  applyTheme(theme: Theme): void {
    document.documentElement.dataset.theme = theme;
  }

  /** After a sign-in on the sign-in screen. */
  async signedIn(): Promise<void> {
    await this.start(true);
  }

  navigate(path: string, replace = false): void {
    void this.#leave().then((leave) => {
      if (!leave) return;
      if (replace) history.replaceState(null, '', path);
      else history.pushState(null, '', path);
      this.#setRoute(true);
    });
  }

  /** Whether the current screen may be left: asked when it holds changes (Save, Discard, Stay). */
  #leave(): Promise<boolean> {
    const guard = this.guard;
    if (!guard?.dirty) return Promise.resolve(true);
    if (this.#leaving) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      this.#leaving = { resolve };
      this.requestUpdate();
      void this.updateComplete.then(() => {
        const dialog = this.querySelector<HTMLDialogElement>('#cms-leave');
        if (dialog && !dialog.open) dialog.showModal();
      });
    });
  }

  async #answerLeave(choice: 'save' | 'discard' | 'stay'): Promise<void> {
    const leaving = this.#leaving;
    if (!leaving) return;
    this.#leaving = undefined;
    this.querySelector<HTMLDialogElement>('#cms-leave')?.close();
    this.requestUpdate();
    if (choice === 'save') leaving.resolve(Boolean(await this.guard?.save(false)) && !this.guard?.dirty);
    else if (choice === 'discard') {
      this.guard?.discard();
      leaving.resolve(true);
    } else leaving.resolve(false);
  }

  /** Back or Forward: the URL already changed; with changes it is put back until the admin decides. */
  async #onPopState(): Promise<void> {
    const target = location.pathname + location.search;
    if (this.guard?.dirty && target !== this.#shownUrl) {
      history.pushState(null, '', this.#shownUrl);
      if (!(await this.#leave())) return;
      history.replaceState(null, '', target);
    }
    this.#setRoute(false);
  }

  /** A message for the next screen, with what a save's notices said. */
  flash(message: string, notices: { message: string }[] = []): void {
    this.#flash = [message, ...notices.map((notice) => notice.message)].join(' ');
  }

  takeFlash(): string | undefined {
    const flash = this.#flash;
    this.#flash = undefined;
    return flash;
  }

  /** The list's state in the URL, without a new history entry per keystroke when `replace`. */
  setQuery(query: URLSearchParams, replace: boolean): void {
    const search = query.toString();
    const url = location.pathname + (search ? `?${search}` : '');
    if (url === location.pathname + location.search) return;
    if (replace) history.replaceState(null, '', url);
    else history.pushState(null, '', url);
  }

  #setRoute(focus: boolean): void {
    this.#shownUrl = location.pathname + location.search;
    const previous = this.route;
    this.route = parseRoute(location.pathname, this.boot.prefix);
    if (this.route.name === 'login' && this.me) this.route = { name: 'dashboard' };
    if (this.route.name !== 'login' && !this.me) {
      void this.start();
      return;
    }
    // A list that only changed its query keeps its focus (search, sort, paging).
    const sameScreen = previous.name === this.route.name && JSON.stringify(previous) === JSON.stringify(this.route);
    this.#focusAfterRender = focus && !sameScreen;
    this.requestUpdate();
    if (sameScreen) this.dispatchEvent(new Event('query-changed'));
  }

  #onClick(event: MouseEvent): void {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const anchor = (event.target as Element).closest('a');
    if (!anchor || anchor.target || anchor.hasAttribute('download')) return;
    const url = new URL(anchor.href, location.href);
    // A link within the page (the skip link) is the browser's.
    if (url.hash && url.pathname === location.pathname) return;
    if (url.origin !== location.origin || !(url.pathname === this.boot.prefix || url.pathname.startsWith(`${this.boot.prefix}/`))) return;
    if (url.pathname.startsWith(`${this.boot.prefix}/api/`) || url.pathname.startsWith(`${this.boot.prefix}/assets/`)) return;
    event.preventDefault();
    this.navigate(url.pathname + url.search);
  }

  #signedOut(): void {
    // Drafts stay on this device only while someone is signed in (docs/admin-ui.md, "Edits are never lost").
    removeAllDrafts();
    this.guard?.discard();
    this.me = undefined;
    this.nav = [];
    history.replaceState(null, '', `${this.boot.prefix}/login`);
    this.route = { name: 'login' };
    this.#focusAfterRender = true;
    this.requestUpdate();
  }

  /**
   * Another admin signed in on this browser (another tab, or the sign-in dialog): the tab starts
   * again as that admin's, on the dashboard (docs/admin-ui.md, "Another admin on the same
   * browser"). The screen goes at once: a changed form writes its draft under its own admin as it
   * goes, and sends nothing; the unsaved-changes question, if asked, is dropped.
   */
  async #adminChanged(): Promise<void> {
    this.#resetting = true;
    const leaving = this.#leaving;
    this.#leaving = undefined;
    this.querySelector<HTMLDialogElement>('#cms-leave')?.close();
    leaving?.resolve(false);
    this.me = undefined;
    this.nav = [];
    history.replaceState(null, '', this.boot.prefix);
    this.requestUpdate();
    await this.updateComplete;
    await this.start(true);
  }

  async signOut(): Promise<void> {
    if (!(await this.#leave())) return;
    await this.api.logout();
    this.#signedOut();
  }

  override updated(): void {
    if (!this.#focusAfterRender) return;
    this.#focusAfterRender = false;
    // Screens that load render their heading at once, so it is there to take focus.
    requestAnimationFrame(() => this.querySelector<HTMLElement>('main h1, .cms-login h1')?.focus());
  }

  t(key: string, params?: Record<string, string | number>, count?: number): string {
    return this.i18n?.t(key, params, count) ?? '';
  }

  override render(): TemplateResult | typeof nothing {
    if (!this.i18n || this.#resetting) {
      return this.failure ? this.#failureView() : html`<p class="cms-loading" role="status">…</p>`;
    }
    if (this.failure) return this.#failureView();
    const banner = this.staleVersion
      ? html`<div class="cms-banner" role="status">
          ${this.t('version_changed')}
          <button type="button" class="cms-button" @click=${() => location.reload()}>${this.t('reload')}</button>
        </div>`
      : nothing;
    if (!this.me || this.route.name === 'login') return html`${banner}<cms-login .app=${this}></cms-login>`;
    return html`${banner}<a class="cms-skip" href="#cms-main">${this.t('skip_to_content')}</a>
      <div class="cms-layout">
        <header class="cms-header">
          <a class="cms-brand" href=${this.boot.prefix}>${this.t('brand')}</a>
          ${this.#accountMenu()}
        </header>
        ${this.#navigation()}
        <main id="cms-main" class="cms-main" tabindex="-1">${this.#screen()}</main>
      </div>
      ${this.api.waitingForSignIn ? html`<cms-login .app=${this} dialog></cms-login>` : nothing}
      ${this.#leaveDialog()}`;
  }

  #failureView(): TemplateResult {
    const error = this.failure!;
    const message = error.message || this.i18n?.t('error_network') || 'The admin could not be reached.';
    return html`<main class="cms-main cms-failure" id="cms-main">
      <h1 tabindex="-1">${this.i18n?.t('error_title') ?? 'Something went wrong'}</h1>
      <p role="alert">${message}</p>
      ${error.requestId ? html`<p>${this.i18n?.t('reference', { id: error.requestId }) ?? error.requestId}</p>` : nothing}
      <button type="button" class="cms-button" @click=${() => void this.start()}>${this.i18n?.t('retry') ?? 'Retry'}</button>
    </main>`;
  }

  #screen(): TemplateResult {
    const route = this.route;
    switch (route.name) {
      case 'dashboard':
        return this.#dashboard();
      case 'list':
        return html`<cms-list .app=${this} .ctl=${route.ctl}></cms-list>`;
      case 'record':
      case 'create':
        if (!this.loadForms()) return html`<h1 tabindex="-1">${this.t('loading')}</h1>`;
        // A new element per record and context: nothing of one form carries over to the next.
        return html`${keyed(
          location.pathname,
          html`<cms-form
            .app=${this}
            .ctl=${route.ctl}
            .routeId=${route.name === 'record' ? route.id : undefined}
            .context=${route.name === 'record' ? route.context : 'create'}
          ></cms-form>`,
        )}`;
      case 'reorder':
        if (!this.loadScreen('reorder')) return html`<h1 tabindex="-1">${this.t('loading')}</h1>`;
        return html`${keyed(location.pathname, html`<cms-reorder .app=${this} .ctl=${route.ctl}></cms-reorder>`)}`;
      case 'settings':
      case 'settings-form':
        if (!this.loadScreen('settings')) return html`<h1 tabindex="-1">${this.t('loading')}</h1>`;
        return html`${keyed(
          location.pathname,
          html`<cms-settings .app=${this} .code=${route.name === 'settings-form' ? route.code : undefined}></cms-settings>`,
        )}`;
      case 'account':
        if (!this.loadScreen('account')) return html`<h1 tabindex="-1">${this.t('loading')}</h1>`;
        return html`<cms-account .app=${this} .section=${route.section}></cms-account>`;
      default:
        return this.notFound();
    }
  }

  /**
   * Whether a screen family's chunk is there (reorder, settings, account: each its own lazy chunk);
   * starts loading it when not, and renders again when it arrives.
   */
  loadScreen(name: keyof typeof SCREENS): boolean {
    if (this.#screensLoaded.has(name)) return true;
    void SCREENS[name]().then(() => {
      this.#screensLoaded.add(name);
      if (document.activeElement === this.querySelector('main h1')) this.#focusAfterRender = true;
      this.requestUpdate();
    });
    return false;
  }

  /** Whether the form screens' chunk is there; starts loading it when not. */
  loadForms(): boolean {
    if (this.#formLoaded) return true;
    void import('./form/form.ts').then(() => {
      this.#formLoaded = true;
      // The heading that had the focus while the chunk loaded gives way to the form's: the focus follows.
      if (document.activeElement === this.querySelector('main h1')) this.#focusAfterRender = true;
      this.requestUpdate();
      this.dispatchEvent(new Event('forms-loaded'));
    });
    return false;
  }

  #leaveDialog(): TemplateResult {
    return html`<dialog
      id="cms-leave"
      class="cms-dialog"
      aria-labelledby="cms-leave-title"
      aria-describedby="cms-leave-text"
      @cancel=${(event: Event) => {
        event.preventDefault();
        void this.#answerLeave('stay');
      }}
    >
      <h2 id="cms-leave-title">${this.t('leave_title')}</h2>
      <p id="cms-leave-text">${this.t('leave_text')}</p>
      <p class="cms-dialog-buttons">
        <button type="button" class="cms-button" @click=${() => void this.#answerLeave('stay')}>${this.t('leave_stay')}</button>
        <button type="button" class="cms-button cms-danger" @click=${() => void this.#answerLeave('discard')}>${this.t('leave_discard')}</button>
        <button type="button" class="cms-button cms-primary" @click=${() => void this.#answerLeave('save')}>${this.t('leave_save')}</button>
      </p>
    </dialog>`;
  }

  /** What to tell the admin about a failed request: the server's message, else "network error". */
  failureMessage(error: unknown): string {
    return error instanceof ApiError && error.message ? error.message : this.t('error_network');
  }

  notFound(): TemplateResult {
    document.title = this.t('not_found_title');
    return html`<h1 tabindex="-1">${this.t('not_found_title')}</h1>
      <p>${this.t('not_found_text')}</p>
      <p><a href=${this.boot.prefix}>${this.t('back_to_dashboard')}</a></p>`;
  }

  forbidden(): TemplateResult {
    document.title = this.t('forbidden_title');
    return html`<h1 tabindex="-1">${this.t('forbidden_title')}</h1>
      <p>${this.t('forbidden_text')}</p>
      <p><a href=${this.boot.prefix}>${this.t('back_to_dashboard')}</a></p>`;
  }

  /** The navigation's label of a controller (its own address when the navigation has none). */
  navLabel(ctl: string): string {
    const entries = this.nav.flatMap((entry) => [entry, ...entry.sideMenu]);
    return entries.find((entry) => entry.controller === ctl)?.label ?? ctl;
  }

  ctlPath(ctl: string): string {
    return `${this.boot.prefix}/${ctl}`;
  }

  #current(ctl: string): boolean {
    const route = this.route;
    return (route.name === 'list' || route.name === 'record' || route.name === 'create' || route.name === 'reorder') && route.ctl === ctl;
  }

  #navigation(): TemplateResult {
    const sorted = (entries: NavigationEntry[]) => [...entries].sort((a, b) => a.order - b.order);
    const link = (entry: NavigationEntry) =>
      entry.controller
        ? html`<a href=${this.ctlPath(entry.controller)} aria-current=${this.#current(entry.controller) ? 'page' : nothing}>${entry.label}</a>`
        : html`<span>${entry.label}</span>`;
    return html`<nav class="cms-nav" aria-label=${this.t('navigation')}>
      <ul>
        ${sorted(this.nav).map(
          (group) => html`<li>
            <span class="cms-nav-group">${group.label}</span>
            ${
              group.sideMenu.length
                ? html`<ul>
                  ${sorted(group.sideMenu).map((item) => html`<li>${link(item)}</li>`)}
                </ul>`
                : html`<ul><li>${link(group)}</li></ul>`
            }
          </li>`,
        )}
        <li>
          <span class="cms-nav-group">${this.t('nav_settings_account')}</span>
          <ul>
            <li>
              <a href="${this.boot.prefix}/settings" aria-current=${this.route.name === 'settings' || this.route.name === 'settings-form' ? 'page' : nothing}
                >${this.t('settings')}</a
              >
            </li>
            <li><a href="${this.boot.prefix}/account" aria-current=${this.route.name === 'account' ? 'page' : nothing}>${this.t('my_account')}</a></li>
          </ul>
        </li>
      </ul>
    </nav>`;
  }

  #dashboard(): TemplateResult {
    document.title = this.t('dashboard');
    const groups = [...this.nav].sort((a, b) => a.order - b.order);
    return html`<h1 tabindex="-1">${this.t('dashboard')}</h1>
      ${groups.map(
        (group) => html`<section class="cms-tiles" aria-labelledby="tiles-${group.code}">
          <h2 id="tiles-${group.code}">${group.label}</h2>
          <ul>
            ${(group.sideMenu.length ? [...group.sideMenu].sort((a, b) => a.order - b.order) : [group])
              .filter((item) => item.controller)
              .map((item) => html`<li><a class="cms-tile" href=${this.ctlPath(item.controller)}>${item.label}</a></li>`)}
          </ul>
        </section>`,
      )}`;
  }

  #accountMenu(): TemplateResult {
    const me = this.me!;
    const name = [me.first_name, me.last_name].filter(Boolean).join(' ') || me.login;
    const theme = document.documentElement.dataset.theme ?? 'auto';
    return html`<details class="cms-account">
      <summary>
        ${me.avatar.thumb_url ? html`<img class="cms-avatar" src=${me.avatar.thumb_url} alt="" width="28" height="28" />` : html`<span class="cms-avatar" aria-hidden="true">${name.slice(0, 1).toUpperCase()}</span>`}
        <span>${name}</span>
      </summary>
      <div class="cms-account-panel">
        <fieldset>
          <legend>${this.t('theme')}</legend>
          ${this.boot.themes.map(
            (value) => html`<label
              ><input type="radio" name="cms-theme" .value=${value} ?checked=${theme === value} @change=${() => void this.savePreferences({ admin_theme: value })} />
              ${this.t(`theme_${value}`)}</label
            >`,
          )}
        </fieldset>
        ${
          this.boot.locales.length > 1
            ? html`<label
              >${this.t('language')}
              <select @change=${(event: Event) => void this.savePreferences({ admin_locale: (event.target as HTMLSelectElement).value })}>
                ${this.boot.locales.map((locale) => html`<option .value=${locale} ?selected=${this.i18n?.locale === locale}>${languageName(locale)}</option>`)}
              </select></label
            >`
            : nothing
        }
        <button type="button" class="cms-button" @click=${() => void this.signOut()}>${this.t('sign_out')}</button>
      </div>
    </details>`;
  }

  /** Applies a preference at once and saves it (the header menu and the account screen: docs/admin-ui.md, "Account"). */
  async savePreferences(change: { admin_theme?: string; admin_locale?: string }): Promise<void> {
    // Applied at once and kept for the next visit. A new language also relabels the navigation
    // (its labels come from the server in the admin's language) and the screen's schema.
    if (change.admin_theme) this.applyTheme(change.admin_theme as Theme);
    const saved = this.api.savePreferences(change);
    if (change.admin_locale) await this.loadStrings(change.admin_locale);
    this.requestUpdate();
    const preferences = await saved;
    if (this.me) this.me = { ...this.me, preferences };
    if (change.admin_locale) {
      this.nav = await this.api.navigation();
      this.requestUpdate();
      this.dispatchEvent(new Event('query-changed'));
    }
  }
}

/** A locale's name in its own language, for the switcher. */
function languageName(locale: string): string {
  try {
    return new Intl.DisplayNames([locale], { type: 'language' }).of(locale) ?? locale;
  } catch {
    return locale;
  }
}

/** How often an open tab sweeps the drafts past their day (docs/admin-ui.md, "Edits are never lost"). */
const SWEEP_EVERY_MS = 60 * 60 * 1000;

/** The lazily loaded screen families (docs/admin-ui.md, "Budgets": one chunk per family). */
const SCREENS = {
  reorder: () => import('./screens/reorder.ts'),
  settings: () => import('./screens/settings.ts'),
  account: () => import('./screens/account.ts'),
};

customElements.define('cms-app', CmsApp);

declare global {
  interface HTMLElementTagNameMap {
    'cms-app': CmsApp;
  }
}
