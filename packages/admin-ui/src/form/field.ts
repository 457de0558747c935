import { html, nothing, type TemplateResult } from 'lit';
import { LightElement } from '../element.ts';
import type { FormField } from '../types.ts';
import type { FieldModule, FieldView, FormHost } from './field-types.ts';

/** What the field element needs of its form, beyond what controls see. */
export interface FieldOwner extends FormHost {
  readonly values: Record<string, unknown>;
  /** Fields that are shown and not editable (the preview screen, `readOnly`). */
  isReadOnly(field: FormField): boolean;
}

/**
 * One field of a form (docs/admin-ui.md, "Forms"): the frame — label or legend, comment, error —
 * around its type's control. Each field is its own element, so typing re-renders one field, not
 * the form: a keystroke in a form of a hundred fields costs one field's render.
 */
export class CmsField extends LightElement {
  owner!: FieldOwner;
  field!: FormField;
  module!: FieldModule;

  get inputId(): string {
    return `field-${this.field.name}`;
  }

  override render(): TemplateResult {
    const field = this.field;
    const id = this.inputId;
    const errors = this.owner.errorsOf(field.name);
    const describedBy = [field.comment ? `${id}-comment` : '', errors.length ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
    const view: FieldView = {
      field,
      value: this.owner.values[field.name],
      id,
      describedBy,
      invalid: errors.length > 0,
      readOnly: this.owner.isReadOnly(field),
      host: this.owner,
      set: (value) => this.owner.setValue(field.name, value),
    };
    const label = field.label ?? '';
    const required = field.required && !view.readOnly ? html`<span class="cms-required" aria-hidden="true">*</span>` : nothing;
    const comment = field.comment ? html`<p class="cms-field-comment" id="${id}-comment">${field.comment}</p>` : nothing;
    const error = errors.length
      ? html`<p class="cms-field-error" id="${id}-error">${errors.map((message) => html`<span>${message}</span> `)}</p>`
      : nothing;
    this.classList.toggle('cms-field-invalid', errors.length > 0);
    if (this.module.frame === 'group') {
      return html`<fieldset class="cms-fieldset" aria-describedby=${describedBy ?? nothing}>
        <legend id="${id}-label">${label}${required}</legend>
        ${this.module.render(view)} ${comment} ${error}
      </fieldset>`;
    }
    return html`${label ? html`<label class="cms-label" for=${id} id="${id}-label">${label}${required}</label>` : nothing}
      ${this.module.render(view)} ${comment} ${error}`;
  }
}

if (!customElements.get('cms-field')) customElements.define('cms-field', CmsField);
