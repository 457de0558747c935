import { html, nothing, type TemplateResult } from 'lit';
import { type ChoiceOption, dropdownEmpty, isEmptyChoice, NATIVE_SELECT_MAX, optionIndex, pickedValue } from '../choice-logic.ts';
import { type ComboOption, combobox, fieldCombo } from '../combobox.ts';
import type { FieldModule, FieldView } from '../field-types.ts';
import './dropdown.css';

/** The select's value of the empty choice and of a value that is not offered (options are by index). */
const EMPTY = 'empty';
const OTHER = 'other';

/**
 * `dropdown` (docs/field-types.md, "dropdown"; docs/admin-ui.md, "Forms"): a native select up to
 * twenty choices, a combobox with typeahead filtering above. `emptyOption` is the first choice,
 * `null`. The options are told apart by their index, so a boolean option (`false`/`true` over a
 * boolean column) sends the boolean, not its text. A value that is not offered is shown as it is
 * rather than silently replaced by the first option.
 */
function render(view: FieldView): TemplateResult {
  const field = view.field;
  const options: readonly ChoiceOption[] = field.options ?? [];
  const index = optionIndex(options, view.value);
  const empty = isEmptyChoice(view.value);
  const shown = index >= 0 ? (options[index]?.label ?? '') : empty ? (field.emptyOption ?? '') : String(view.value);

  if (view.readOnly) {
    return html`<input
      class="cms-dropdown-readonly"
      id=${view.id}
      type="text"
      readonly
      .value=${shown}
      aria-describedby=${view.describedBy ?? nothing}
    />`;
  }

  const choices = options.length + (field.emptyOption !== undefined ? 1 : 0);
  if (choices > NATIVE_SELECT_MAX) {
    const comboOptions: ComboOption[] = [
      ...(field.emptyOption !== undefined ? [{ key: EMPTY, label: field.emptyOption }] : []),
      ...options.map((option, at) => ({ key: String(at), label: option.label })),
    ];
    return combobox({
      ...fieldCombo(view),
      required: field.required === true,
      source: comboOptions,
      display: shown,
      selectedKey: index >= 0 ? String(index) : empty && field.emptyOption !== undefined ? EMPTY : undefined,
      autoSelect: true,
      onPick: (option) => {
        if (option.key === EMPTY) view.set(null);
        else {
          const picked = options[Number(option.key)];
          if (picked) view.set(pickedValue(picked, view.value));
        }
      },
    });
  }

  const selected = index >= 0 ? String(index) : empty && field.emptyOption !== undefined ? EMPTY : OTHER;
  return html`<select
    class="cms-dropdown"
    id=${view.id}
    aria-describedby=${view.describedBy ?? nothing}
    aria-invalid=${view.invalid ? 'true' : nothing}
    aria-required=${field.required ? 'true' : nothing}
    .value=${selected}
    @change=${(event: Event) => {
      const key = (event.target as HTMLSelectElement).value;
      if (key === EMPTY) view.set(null);
      else {
        const picked = options[Number(key)];
        if (picked) view.set(pickedValue(picked, view.value));
      }
    }}
  >
    ${field.emptyOption !== undefined ? html`<option value=${EMPTY} ?selected=${selected === EMPTY}>${field.emptyOption}</option>` : nothing}
    ${selected === OTHER ? html`<option value=${OTHER} disabled selected>${shown}</option>` : nothing}
    ${options.map((option, at) => html`<option value=${String(at)} ?selected=${selected === String(at)}>${option.label}</option>`)}
  </select>`;
}

const module: FieldModule = {
  render,
  frame: 'label',
  empty: (field) => dropdownEmpty(field),
};

export default module;
