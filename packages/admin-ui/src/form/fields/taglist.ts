import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { LightElement } from '../../element.ts';
import { addTags, type ChoiceOption, offeredTag, separatorOf, splitTyped, tagsOf, tagsValue } from '../choice-logic.ts';
import { type ComboOption, combobox, fieldCombo } from '../combobox.ts';
import type { FieldModule, FieldView } from '../field-types.ts';

/**
 * `taglist` (docs/field-types.md, "taglist"; docs/admin-ui.md, "Forms"): the tags as chips and a
 * text box. Typing the `separator` or Enter (or leaving the box) adds what was typed, trimmed,
 * without empty tags and without repeats, as the server stores them (a repeat is said, not
 * added). With offered tags (`options`) the box is a combobox over them; `customTags: false`
 * takes only those. Backspace in the empty box removes the last tag; each chip has a remove
 * button named after its tag. The value is an array of strings, or in `mode: 'string'` one
 * string joined by the separator.
 */
export class CmsTaglistField extends LightElement {
  #view: FieldView | undefined;
  #focusInput = false;

  set view(view: FieldView) {
    this.#view = view;
    this.requestUpdate();
  }

  get view(): FieldView | undefined {
    return this.#view;
  }

  override render(): TemplateResult | typeof nothing {
    const view = this.#view;
    if (!view) return nothing;
    const field = view.field;
    const app = view.host.app;
    const separator = separatorOf(field);
    const options: readonly ChoiceOption[] = field.options ?? [];
    const custom = field.customTags !== false;
    const tags = tagsOf(view.value, separator);
    const labelOf = (tag: string) => options.find((option) => String(option.value) === tag)?.label ?? tag;
    const editable = !view.readOnly;
    const locale = app.i18n?.locale;

    const save = (next: readonly string[]) => view.set(tagsValue(next, field.mode, separator));
    /** Adds typed tags; the offered tag each one names when only offered ones are taken. */
    const add = (typed: readonly string[]): void => {
      const accepted: string[] = [];
      for (const text of typed) {
        if (text.trim() === '') continue;
        const tag = custom ? text : offeredTag(options, text, locale);
        if (tag === undefined) view.host.announce(app.t('tag_not_offered', { tag: text.trim() }));
        else accepted.push(tag);
      }
      const { tags: next, added, repeated } = addTags(tags, accepted);
      for (const tag of repeated) view.host.announce(app.t('tag_repeated', { tag }));
      if (added.length > 0) {
        save(next);
        view.host.announce(app.t('choice_added', { label: added.map(labelOf).join(', ') }));
      }
    };
    const remove = (tag: string, focusInput: boolean) => {
      save(tags.filter((other) => other !== tag));
      view.host.announce(app.t('choice_removed', { label: labelOf(tag) }));
      this.#focusInput = focusInput;
    };
    const offered: ComboOption[] = options
      .filter((option) => !tags.includes(String(option.value)))
      .map((option) => ({ key: String(option.value), label: option.label }));

    return html`<ul class="cms-chipset" aria-label=${field.label ?? field.name}>
        ${tags.map(
          (tag) => html`<li>
            <span class="cms-chip-text">${labelOf(tag)}</span>${
              editable
                ? html`<button
                    type="button"
                    class="cms-chip-remove"
                    aria-label=${app.t('choice_remove', { label: labelOf(tag) })}
                    @click=${() => remove(tag, true)}
                  >
                    <span aria-hidden="true">×</span>
                  </button>`
                : nothing
            }
          </li>`,
        )}
      </ul>
      ${combobox({
        ...fieldCombo(view),
        required: field.required === true && tags.length === 0,
        readOnly: view.readOnly,
        source: view.readOnly || options.length === 0 ? null : offered,
        display: '',
        // Only offered tags: the first match is taken by Enter; free text is typed on its own.
        autoSelect: !custom,
        onPick: (option) => add([option.key]),
        onFree: (text) => {
          add([text]);
          return true;
        },
        onType: (text) => {
          if (!text.includes(separator)) return text;
          const { finished, rest } = splitTyped(text, separator);
          add(finished);
          return rest.trimStart();
        },
        onBackspaceEmpty: () => {
          const last = tags.at(-1);
          if (last !== undefined) remove(last, true);
        },
      })}`;
  }

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    if (!this.#focusInput || !this.#view) return;
    this.#focusInput = false;
    const input = this.querySelector<HTMLElement>(`#${CSS.escape(this.#view.id)}`);
    if (input && document.activeElement !== input) input.focus();
  }
}

if (!customElements.get('cms-taglist-field')) customElements.define('cms-taglist-field', CmsTaglistField);

const module: FieldModule = {
  render: (view) => html`<cms-taglist-field .view=${view}></cms-taglist-field>`,
  frame: 'label',
  empty: (field) => (field.mode === 'string' ? '' : []),
  toBody: (value, field) => tagsValue(tagsOf(value, separatorOf(field)), field.mode, separatorOf(field)),
};

export default module;
