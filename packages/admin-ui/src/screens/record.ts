import { html, nothing, type TemplateResult } from 'lit';
import { ApiError } from '../api.ts';
import type { CmsApp } from '../app.ts';
import { LightElement } from '../element.ts';

/**
 * A record's values, read only (docs/admin-ui.md, "Routes"): where a list's `recordUrl` leads, and
 * a singleton controller's record (`singleton` attribute), until the form screens exist. Values
 * are shown as text; relation ids as their labels.
 */
export class CmsRecord extends LightElement {
  app!: CmsApp;
  ctl!: string;
  recordId!: string;
  record: Record<string, unknown> | undefined;
  labels: Record<string, { label: string }[]> = {};
  error: ApiError | undefined;

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  async load(): Promise<void> {
    this.error = undefined;
    try {
      const path = this.hasAttribute('singleton') ? `/${this.ctl}/singleton` : `/${this.ctl}/${this.recordId}`;
      const answer = await this.app.api.call<Record<string, unknown>>('GET', path);
      this.record = answer.data;
      this.labels = (answer.meta.labels ?? {}) as Record<string, { label: string }[]>;
    } catch (error) {
      this.error = error instanceof ApiError ? error : new ApiError(0, 'network', String(error));
    }
    this.requestUpdate();
  }

  #text(key: string, value: unknown): string {
    const labels = this.labels[key];
    if (labels) return labels.map((entry) => entry.label).join(', ');
    if (value === null || value === undefined) return '';
    if (Array.isArray(value)) return value.map(String).join(', ');
    if (typeof value === 'object') return JSON.stringify(value);
    return String(value);
  }

  override render(): TemplateResult {
    const app = this.app;
    if (this.error?.status === 404) return app.notFound();
    if (this.error?.status === 403) return app.forbidden();
    const singleton = this.hasAttribute('singleton');
    const title = singleton ? app.navLabel(this.ctl) : app.t('record_title', { id: this.recordId });
    document.title = title;
    return html`<h1 tabindex="-1">${title}</h1>
      ${singleton ? nothing : html`<p><a href=${app.ctlPath(this.ctl)}>${app.t('back_to_list')}</a></p>`}
      ${
        this.error
          ? html`<div class="cms-alert" role="alert">
            <p>${this.error.message || app.t('error_network')}</p>
            <button type="button" class="cms-button" @click=${() => void this.load()}>${app.t('retry')}</button>
          </div>`
          : nothing
      }
      ${
        this.record
          ? html`<dl class="cms-record">
            ${Object.entries(this.record).map(([key, value]) => html`<dt>${key}</dt><dd>${this.#text(key, value)}</dd>`)}
          </dl>`
          : this.error
            ? nothing
            : html`<p role="status">${app.t('loading')}</p>`
      }`;
  }
}

customElements.define('cms-record', CmsRecord);
