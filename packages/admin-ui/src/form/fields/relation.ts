import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import type { components } from '../../api/schema.d.ts';
import { LightElement } from '../../element.ts';
import { moveItem, relationId, relationIds } from '../choice-logic.ts';
import { type ComboOption, type ComboPage, combobox, fieldCombo } from '../combobox.ts';
import type { FieldModule, FieldView } from '../field-types.ts';

type RelationOption = components['schemas']['RelationOption'];

const PER_PAGE = 20;
/** The key of the empty choice (`emptyOption`) among the ids. */
const NONE = 'none';

interface Known {
  label: string;
  locked: boolean;
}

/**
 * `relation` (docs/field-types.md, "relation"; docs/admin-ui.md, "Forms"). belongsTo: a searchable
 * combobox over `GET /{ctl}/fields/{field}/options`, the value an id or `null` (`emptyOption`).
 * belongsToMany: the chosen records as ordered chips, the same combobox to add one. A chip is
 * removed with its button, with Delete on it, or with Backspace in the empty box; Alt+Left and
 * Alt+Right move a focused chip (the order is saved). Locked records (the options route's
 * `locked`, or a served label's) say so and cannot be removed or picked. Labels of the records
 * chosen here are kept, so a new chip shows its label and not its id.
 */
export class CmsRelationField extends LightElement {
  #view: FieldView | undefined;
  readonly #known = new Map<number, Known>();
  /** A chip to focus once the value shows it: after a move or a removal. */
  #focus: { id: number | 'input'; order: string } | undefined;

  set view(view: FieldView) {
    this.#view = view;
    for (const served of view.host.labelsOf(view.field.name)) {
      const id = relationId(served.value);
      if (id === null) continue;
      const locked = (served as { locked?: unknown }).locked === true;
      const known = this.#known.get(id);
      this.#known.set(id, { label: served.label, locked: locked || (known?.locked ?? false) });
    }
    this.requestUpdate();
  }

  get view(): FieldView | undefined {
    return this.#view;
  }

  #label(id: number): string {
    return this.#known.get(id)?.label ?? this.#view?.host.app.t('record_title', { id }) ?? String(id);
  }

  #remember(options: readonly RelationOption[]): void {
    for (const option of options) this.#known.set(option.value, { label: option.label, locked: option.locked === true });
  }

  /** The options route, page by page; `exclude` leaves out records already chosen. */
  #source(view: FieldView, exclude: ReadonlySet<number>, withEmpty: boolean) {
    return async (search: string, page: number, signal: AbortSignal): Promise<ComboPage> => {
      const { data, meta } = await view.host.app.api.call<RelationOption[]>(
        'GET',
        `/${view.host.ctl}/fields/${encodeURIComponent(view.field.name)}/options`,
        { query: { search: search || undefined, page, per_page: PER_PAGE }, signal },
      );
      this.#remember(data);
      const lastPage = typeof meta.last_page === 'number' ? meta.last_page : page;
      const total = typeof meta.total === 'number' ? meta.total : undefined;
      const options: ComboOption[] = data
        .filter((option) => !exclude.has(option.value))
        .map((option) => ({ key: String(option.value), label: option.label, locked: option.locked === true }));
      if (withEmpty && page === 1 && search === '' && view.field.emptyOption !== undefined)
        options.unshift({ key: NONE, label: view.field.emptyOption });
      return { options, more: page < lastPage, ...(total !== undefined ? { total: Math.max(0, total - exclude.size) } : {}) };
    };
  }

  override render(): TemplateResult | typeof nothing {
    const view = this.#view;
    if (!view) return nothing;
    return view.field.multiple ? this.#many(view) : this.#one(view);
  }

  #one(view: FieldView): TemplateResult {
    const field = view.field;
    const id = relationId(view.value);
    const locked = id !== null && this.#known.get(id)?.locked === true;
    const display = id === null ? (field.emptyOption ?? '') : this.#label(id);
    return html`${combobox({
      ...fieldCombo(view),
      required: field.required === true,
      // A locked record may not be taken away: the choice is shown, not offered.
      readOnly: view.readOnly || locked,
      source: view.readOnly || locked ? null : this.#source(view, new Set(), true),
      display,
      selectedKey: id === null ? NONE : String(id),
      autoSelect: true,
      onPick: (option) => view.set(option.key === NONE ? null : Number(option.key)),
    })}${locked ? html`<p class="cms-lock"><span aria-hidden="true">🔒</span> ${view.host.app.t('choice_locked')}</p>` : nothing}`;
  }

  #many(view: FieldView): TemplateResult {
    const field = view.field;
    const app = view.host.app;
    const ids = relationIds(view.value);
    const editable = !view.readOnly;
    const hint = `${view.id}-move-hint`;
    const remove = (id: number) => {
      if (this.#known.get(id)?.locked) return;
      const at = ids.indexOf(id);
      const next = ids.filter((other) => other !== id);
      const focus = next[at] ?? next[at - 1];
      this.#focus = { id: focus ?? 'input', order: next.join(',') };
      view.set(next);
      view.host.announce(app.t('choice_removed', { label: this.#label(id) }));
    };
    const onChipKey = (event: KeyboardEvent, id: number) => {
      const at = ids.indexOf(id);
      if (event.altKey && (event.key === 'ArrowLeft' || event.key === 'ArrowRight')) {
        event.preventDefault();
        const rtl = getComputedStyle(event.currentTarget as Element).direction === 'rtl';
        const forward = (event.key === 'ArrowRight') !== rtl;
        const next = moveItem(ids, at, forward ? 1 : -1);
        if (next.join(',') === ids.join(',')) return;
        this.#focus = { id, order: next.join(',') };
        view.set(next);
        view.host.announce(app.t('choice_moved', { label: this.#label(id), position: next.indexOf(id) + 1, count: next.length }));
      } else if (event.key === 'Delete' || event.key === 'Backspace') {
        event.preventDefault();
        remove(id);
      }
    };
    return html`<ul class="cms-chipset" aria-label=${field.label ?? field.name}>
        ${ids.map((id) => {
          const locked = this.#known.get(id)?.locked === true;
          const label = this.#label(id);
          return html`<li class=${locked ? 'cms-chip-locked' : nothing} data-id=${id}>
            <span
              class="cms-chip-text"
              tabindex=${editable ? '0' : nothing}
              aria-describedby=${editable ? hint : nothing}
              @keydown=${editable ? (event: KeyboardEvent) => onChipKey(event, id) : nothing}
              >${label}</span
            >${
              locked
                ? html` <span class="cms-lock"><span aria-hidden="true">🔒</span> ${app.t('choice_locked')}</span>`
                : editable
                  ? html`<button
                      type="button"
                      class="cms-chip-remove"
                      aria-label=${app.t('choice_remove', { label })}
                      @click=${() => remove(id)}
                    >
                      <span aria-hidden="true">×</span>
                    </button>`
                  : nothing
            }
          </li>`;
        })}
      </ul>
      ${editable ? html`<span id=${hint} hidden>${app.t('choice_move_hint')}</span>` : nothing}
      ${combobox({
        ...fieldCombo(view),
        required: field.required === true && ids.length === 0,
        readOnly: view.readOnly,
        source: view.readOnly ? null : this.#source(view, new Set(ids), false),
        display: '',
        onPick: (option) => {
          const id = Number(option.key);
          if (ids.includes(id)) return;
          view.set([...ids, id]);
          view.host.announce(app.t('choice_added', { label: option.label }));
        },
        onBackspaceEmpty: () => {
          const last = [...ids].reverse().find((id) => !this.#known.get(id)?.locked);
          if (last !== undefined) remove(last);
          this.#focus = undefined;
        },
      })}`;
  }

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    const focus = this.#focus;
    const view = this.#view;
    if (!focus || !view) return;
    const target =
      focus.id === 'input'
        ? this.querySelector<HTMLElement>(`#${CSS.escape(view.id)}`)
        : this.querySelector<HTMLElement>(`li[data-id="${focus.id}"] .cms-chip-text`);
    if (target && document.activeElement !== target) target.focus();
    // Until the form shows the new order the chip may still sit at its old place: focus again then.
    if (relationIds(view.value).join(',') === focus.order) this.#focus = undefined;
  }
}

if (!customElements.get('cms-relation-field')) customElements.define('cms-relation-field', CmsRelationField);

const module: FieldModule = {
  render: (view) => html`<cms-relation-field .view=${view}></cms-relation-field>`,
  frame: 'label',
  empty: (field) => (field.multiple ? [] : null),
  toBody: (value, field) => (field.multiple ? relationIds(value) : relationId(value)),
};

export default module;
