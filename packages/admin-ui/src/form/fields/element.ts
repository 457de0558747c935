import { html, nothing, type TemplateResult } from 'lit';
import { ApiError } from '../../api.ts';
import { LightElement } from '../../element.ts';
import type { AdminActionResult } from '../../types.ts';
import type { FieldModule, FieldView } from '../field-types.ts';

/**
 * Plugin elements (docs/admin-ui.md, "Plugin elements: protocol v1"): a field type's custom
 * element (`element` of the field; the core's `switch` and `checkbox` are ones too) and a widget
 * field's element with its action button. The host creates the element once, sets the protocol's
 * properties on every render, and listens for its `change` event. An element that is not defined
 * within five seconds (its script failed) leaves the field read only with a message.
 */

/** How long the host waits for an element's definition before it gives up on it. */
const ELEMENT_TIMEOUT_MS = 5000;

const waits = new Map<string, Promise<boolean>>();

/** Whether the tag gets defined within the timeout (one wait per tag for the whole page). */
function defined(tag: string): Promise<boolean> {
  let wait = waits.get(tag);
  if (!wait) {
    wait = Promise.race([
      customElements.whenDefined(tag).then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(Boolean(customElements.get(tag))), ELEMENT_TIMEOUT_MS)),
    ]);
    waits.set(tag, wait);
  }
  return wait;
}

/** What the protocol gives every element: the properties a host sets. */
function setProperties(element: HTMLElement, view: FieldView, errorMessage: string | undefined): void {
  const app = view.host.app;
  const field = view.field;
  const target = element as unknown as Record<string, unknown>;
  target.field = { name: field.name, label: field.label, required: field.required, readOnly: view.readOnly, comment: field.comment };
  target.label = field.label ?? field.name;
  target.typeOptions = field.typeOptions ?? {};
  target.locale = app.i18n?.locale ?? app.boot.locale;
  target.locales = app.boot.locales;
  target.readOnly = view.readOnly;
  // The core's yes/no elements (and many plain ones) read `disabled`.
  target.disabled = view.readOnly;
  target.required = Boolean(field.required);
  target.invalid = view.invalid;
  target.errorMessage = errorMessage ?? '';
  target.uploadUrl =
    view.host.recordId === undefined ? null : `${app.boot.apiBase}/${view.host.ctl}/${view.host.recordId}/fields/${field.name}/upload`;
  // `value` last: an element may render from it with the options above already known.
  if (target.value !== view.value) target.value = view.value;
}

class PluginElementHost extends LightElement {
  #view!: FieldView;
  #element: HTMLElement | undefined;
  #state: 'waiting' | 'ready' | 'missing' = 'waiting';
  /** For widgets: the action's run. */
  widget: { running: boolean; result: AdminActionResult | undefined; error: string | undefined } | undefined;

  set view(view: FieldView) {
    this.#view = view;
    this.#sync();
    this.requestUpdate();
  }

  get #tag(): string {
    return (this.#view.field.type === 'widget' ? this.#view.field.widget : this.#view.field.element) ?? '';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    const tag = this.#tag;
    void defined(tag).then((ok) => {
      this.#state = ok ? 'ready' : 'missing';
      if (ok) this.#create();
      this.requestUpdate();
    });
  }

  #create(): void {
    if (this.#element) return;
    const element = document.createElement(this.#tag);
    element.addEventListener('change', (event) => {
      // Only the element's own event: a native `change` of an input inside it carries no value.
      if (!(event instanceof CustomEvent) || event.target !== element || this.#view.field.type === 'widget') return;
      event.stopPropagation();
      this.#view.set((event.detail as { value?: unknown } | null)?.value ?? null);
    });
    element.addEventListener('cms-widget-run', (event) => {
      if (event instanceof CustomEvent) void this.#run((event.detail as { payload?: unknown } | null)?.payload);
    });
    this.#element = element;
    this.#sync();
  }

  #sync(): void {
    if (!this.#element || !this.#view) return;
    setProperties(this.#element, this.#view, this.#view.host.errorsOf(this.#view.field.name).join(' ') || undefined);
  }

  /** A widget's action (docs/admin-ui.md, "Plugin elements: protocol v1"): the `fill` keys' values and the element's payload. */
  async #run(payload: unknown): Promise<void> {
    const view = this.#view;
    const field = view.field;
    const values: Record<string, unknown> = {};
    for (const name of field.fill ?? []) {
      const value = view.host.fieldValue(name);
      if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) values[name] = value;
    }
    this.widget = { running: true, result: undefined, error: undefined };
    this.requestUpdate();
    try {
      const answer = await view.host.app.api.call<AdminActionResult>('POST', `/${view.host.ctl}/widgets/${field.name}`, {
        body: {
          ...(view.host.recordId === undefined ? {} : { record_id: view.host.recordId }),
          values,
          ...(payload === undefined ? {} : { payload }),
        },
      });
      const result = answer.data;
      for (const [name, value] of Object.entries(result.fill)) view.host.setValue(name, value);
      this.widget = { running: false, result, error: undefined };
      if (this.#element) (this.#element as unknown as { result: unknown }).result = result;
      if (result.message) view.host.announce(result.message);
    } catch (error) {
      const message =
        error instanceof ApiError
          ? [...Object.values(error.details).flat(), ...(Object.keys(error.details).length ? [] : [error.message])].join(' ')
          : view.host.app.t('error_network');
      this.widget = { running: false, result: undefined, error: message || view.host.app.t('error_network') };
    }
    this.requestUpdate();
  }

  override render(): TemplateResult {
    const view = this.#view;
    const app = view.host.app;
    const isWidget = view.field.type === 'widget';
    const body =
      this.#state === 'missing'
        ? html`<p class="cms-alert cms-field-missing" role="status">${app.t('element_missing')}</p>
          ${isWidget ? nothing : html`<output class="cms-input cms-readonly">${view.value === null || view.value === undefined ? '' : String(view.value)}</output>`}`
        : this.#state === 'waiting'
          ? html`<p class="cms-muted">${app.t('loading')}</p>`
          : this.#element;
    if (!isWidget) return html`<div class="cms-element" id=${view.id}>${body}</div>`;
    const run = this.widget;
    return html`<div class="cms-element" id=${view.id}>${this.#state === 'missing' ? nothing : body}</div>
      <button type="button" class="cms-button" ?disabled=${view.readOnly || run?.running} @click=${() => void this.#run((this.#element as { payload?: unknown } | undefined)?.payload)}>
        ${view.field.actionLabel ?? view.field.label ?? view.field.name}
      </button>
      ${run?.error ? html`<p class="cms-field-error" role="alert">${run.error}</p>` : nothing}
      ${run?.result?.message ? html`<p class="cms-muted">${run.result.message}</p>` : nothing}`;
  }
}
if (!customElements.get('cms-element-host')) customElements.define('cms-element-host', PluginElementHost);

/** A plugin field type's element (and `switch`, `checkbox`). */
export const elementField: FieldModule = {
  frame: 'group',
  render: (view) => html`<cms-element-host .view=${view}></cms-element-host>`,
  empty: () => null,
};

/** A widget field: its element plus the action button; it has no value of its own. */
export const widgetField: FieldModule = {
  frame: 'group',
  render: (view) => html`<cms-element-host .view=${view}></cms-element-host>`,
};
