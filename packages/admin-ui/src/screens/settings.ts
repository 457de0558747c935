import { html, nothing, type TemplateResult } from 'lit';
import { ApiError } from '../api.ts';
import type { CmsApp } from '../app.ts';
import { LightElement } from '../element.ts';
import '../form/form.ts';
import type { components } from '../api/schema.d.ts';
import { groupByCategory, matches } from './settings-logic.ts';
import './settings.css';

type SettingsEntry = components['schemas']['SettingsEntry'];

/**
 * The settings index and a settings form (docs/admin-ui.md, "Settings"). The index lists the
 * entries the admin may use, grouped by category, with a filter over labels, descriptions and
 * keywords; a form entry opens `/settings/{code}` (the form engine in settings mode), a link entry
 * its controller.
 */
export class CmsSettings extends LightElement {
  app!: CmsApp;
  code: string | undefined;
  entries: SettingsEntry[] | undefined;
  failure: ApiError | undefined;
  query = '';
  status = '';
  #statusTimer: ReturnType<typeof setTimeout> | undefined;
  readonly #onLanguage = () => {
    if (this.code === undefined) void this.load();
  };

  override connectedCallback(): void {
    super.connectedCallback();
    this.app.addEventListener('query-changed', this.#onLanguage);
    if (this.code === undefined) void this.load();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.app.removeEventListener('query-changed', this.#onLanguage);
    clearTimeout(this.#statusTimer);
  }

  async load(): Promise<void> {
    this.failure = undefined;
    this.requestUpdate();
    try {
      this.entries = (await this.app.api.call<SettingsEntry[]>('GET', '/settings')).data;
    } catch (error) {
      this.failure = error instanceof ApiError ? error : new ApiError(0, 'network', String(error));
    }
    this.requestUpdate();
  }

  #filter(query: string): void {
    this.query = query;
    this.requestUpdate();
    // The count is said once the typing pauses, not per keystroke.
    clearTimeout(this.#statusTimer);
    this.#statusTimer = setTimeout(() => {
      const count = (this.entries ?? []).filter((entry) => matches(entry, this.query)).length;
      this.status = this.query.trim() ? this.app.i18n!.t('settings_found', {}, count) : '';
      this.requestUpdate();
    }, 400);
  }

  override render(): TemplateResult {
    const app = this.app;
    if (this.code !== undefined) {
      return html`<cms-form .app=${app} .ctl=${`settings/${this.code}`} .settingsCode=${this.code} .context=${'update'}></cms-form>`;
    }
    document.title = app.t('settings');
    const entries = this.entries;
    return html`<h1 tabindex="-1">${app.t('settings')}</h1>
      <p class="cms-status" role="status">${this.status}</p>
      ${
        this.failure
          ? html`<div class="cms-alert" role="alert">
            <p>${this.failure.message || app.t('error_network')}</p>
            <button type="button" class="cms-button" @click=${() => void this.load()}>${app.t('retry')}</button>
          </div>`
          : nothing
      }
      ${entries ? this.#index(entries) : this.failure ? nothing : html`<p>${app.t('loading')}</p>`}`;
  }

  #index(entries: SettingsEntry[]): TemplateResult {
    const app = this.app;
    const shown = entries.filter((entry) => matches(entry, this.query));
    return html`<div class="cms-settings-filter" role="search">
        <label class="cms-label" for="cms-settings-filter">${app.t('settings_filter')}</label>
        <input
          id="cms-settings-filter"
          class="cms-input"
          type="search"
          .value=${this.query}
          aria-describedby="cms-settings-filter-hint"
          @input=${(event: Event) => this.#filter((event.target as HTMLInputElement).value)}
        />
        <p class="cms-field-comment" id="cms-settings-filter-hint">${app.t('settings_filter_hint')}</p>
      </div>
      ${
        !entries.length
          ? html`<p class="cms-empty">${app.t('settings_none')}</p>`
          : !shown.length
            ? html`<p class="cms-empty">${app.t('settings_no_match')}</p>`
            : groupByCategory(shown).map(
                (group, index) => html`<section class="cms-settings-group" aria-labelledby="cms-settings-group-${index}">
                  <h2 id="cms-settings-group-${index}">${group.category}</h2>
                  <ul class="cms-settings-entries">
                    ${group.entries.map((entry) => this.#entry(entry))}
                  </ul>
                </section>`,
              )
      }`;
  }

  #entry(entry: SettingsEntry): TemplateResult {
    const app = this.app;
    const href = entry.controller ? app.ctlPath(entry.controller) : `${app.boot.prefix}/settings/${entry.code}`;
    const describedBy = `cms-settings-entry-${entry.code}-text`;
    return html`<li class="cms-settings-entry">
      <a href=${href} aria-describedby=${describedBy}>${entry.label}</a>
      <p id=${describedBy} class="cms-muted">${entry.description}</p>
    </li>`;
  }
}

customElements.define('cms-settings', CmsSettings);

declare global {
  interface HTMLElementTagNameMap {
    'cms-settings': CmsSettings;
  }
}
