import { html, nothing, svg, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import { LightElement } from '../../element.ts';
import {
  addDays,
  addMonths,
  clampDay,
  type DateField,
  type Day,
  daysInMonth,
  dayOf,
  displayFormatOf,
  formatWallClock,
  fromValue,
  modeOf,
  monthGrid,
  parseText,
  splitDay,
  toValue,
  type WallClock,
  weekBounds,
  yearOptions,
} from '../dates.ts';
import type { FieldModule, FieldView } from '../field-types.ts';
import './datepicker.css';

/**
 * The `datepicker` field (docs/field-types.md, "datepicker"; docs/admin-ui.md, "Forms"): a text
 * field the admin types into, read and written in the field's `displayFormat` (the locale's own
 * numeric format without one) and leniently (ISO 8601 too), and a button opening a calendar in a
 * modal dialog (the WAI-ARIA date picker dialog pattern) with time selects for `datetime`, or only
 * time selects for `time`. Values are the API's: `YYYY-MM-DD`, `HH:MM:SS`, or an ISO instant shown
 * in the browser's zone (a wall-clock without offset with `ignoreTimezone`).
 *
 * The control shows `view.value` and reports with `view.set`. A value is only rewritten when the
 * admin changed what it shows: an untouched `…35.026Z` is sent back as served. A text that cannot
 * be read is not dropped: it stays the value, marked invalid with a hint, and the save sends it as
 * typed, so the server refuses it (422) under the field instead of the admin losing what they typed.
 */

let serial = 0;

const formatters = new Map<string, Intl.DateTimeFormat>();

/** A day written by `Intl` in the admin's locale (cached: a calendar writes 42 labels a render). */
function writeDay(locale: string | undefined, day: Day, options: Intl.DateTimeFormatOptions): string {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = formatters.get(key);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' });
    } catch {
      format = new Intl.DateTimeFormat('en', { ...options, timeZone: 'UTC' });
    }
    formatters.set(key, format);
  }
  return format.format(new Date(`${day}T00:00:00Z`));
}

const pad = (n: number) => String(n).padStart(2, '0');

function today(): WallClock {
  const now = new Date();
  return {
    year: now.getFullYear(),
    month: now.getMonth() + 1,
    day: now.getDate(),
    hour: now.getHours(),
    minute: now.getMinutes(),
    second: 0,
    millisecond: 0,
  };
}

const calendarIcon = svg`<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
  <rect x="3.5" y="5" width="17" height="15" rx="2" fill="none" stroke="currentColor" stroke-width="1.6" />
  <path d="M3.5 10h17M8 3v4M16 3v4" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linecap="round" />
</svg>`;

const clockIcon = svg`<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
  <circle cx="12" cy="12" r="8.5" fill="none" stroke="currentColor" stroke-width="1.6" />
  <path d="M12 7v5l3.5 2" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linecap="round" />
</svg>`;

/** The control: the text field, its button and, while open, the dialog. */
export class CmsDatepicker extends LightElement {
  #view!: FieldView;
  /** What the admin is typing, until the text is committed (change, Enter). */
  #draft: string | undefined;
  #open = false;
  /** The day the calendar's focus is on. */
  #focusDay: Day = '';
  #hour = 0;
  #minute = 0;
  /** Move the focus into the dialog (to the focused day) after the next render. */
  #moveFocus = false;
  /** Enter or Space went down on a day of the grid: its release chooses the day. */
  #armed: string | undefined;
  readonly #uid = `cms-datepicker-${++serial}`;

  get view(): FieldView {
    return this.#view;
  }

  set view(view: FieldView) {
    this.#view = view;
    this.requestUpdate();
  }

  get #field(): DateField {
    return { mode: modeOf(this.#view.field.mode), ignoreTimezone: this.#view.field.ignoreTimezone ?? false };
  }

  get #locale(): string | undefined {
    return this.#view.host.app.i18n?.locale;
  }

  get #format(): string {
    return displayFormatOf(this.#view.field, this.#locale);
  }

  get #min(): Day | undefined {
    return this.#view.field.minDate;
  }

  get #max(): Day | undefined {
    return this.#view.field.maxDate;
  }

  get #twelveHour(): boolean {
    return this.#view.field.twelveHour ?? false;
  }

  /** The value as a wall-clock; undefined when empty or not readable. */
  #shown(): WallClock | undefined {
    return fromValue(this.#view.value, this.#field);
  }

  /** The value is text that is not a date (typed, kept so the save answers for it). */
  #unreadable(): boolean {
    const value = this.#view.value;
    return typeof value === 'string' && value.trim() !== '' && !this.#shown();
  }

  #t(key: string, params?: Record<string, string | number>): string {
    return this.#view.host.app.t(key, params);
  }

  #set(value: unknown): void {
    this.#view.set(value);
    this.requestUpdate();
  }

  /** A typed text: empty clears, readable sets the value (unless it shows the same), else kept as typed. */
  #commit(text: string): void {
    this.#draft = undefined;
    const trimmed = text.trim();
    const current = this.#view.value;
    if (trimmed === '') {
      if (current !== null && current !== undefined && current !== '') this.#set(null);
      else this.requestUpdate();
      return;
    }
    const format = this.#format;
    const wall = parseText(trimmed, format, { mode: this.#field.mode });
    if (!wall) {
      if (trimmed !== current) this.#set(trimmed);
      else this.requestUpdate();
      return;
    }
    const shown = this.#shown();
    if (shown && formatWallClock(shown, format) === formatWallClock(wall, format)) {
      this.requestUpdate();
      return;
    }
    this.#set(toValue(wall, this.#field));
  }

  /** The dialog's choice: the focused day at the chosen time (seconds kept only when nothing changed). */
  #choose(day: Day): void {
    const field = this.#field;
    if ((this.#min && day < this.#min) || (this.#max && day > this.#max)) return;
    const date = field.mode === 'time' ? { year: 1970, month: 1, day: 1 } : splitDay(day);
    const time = field.mode === 'date' ? { hour: 0, minute: 0 } : { hour: this.#hour, minute: this.#minute };
    const shown = this.#shown();
    const same =
      shown &&
      (field.mode === 'time' || dayOf(shown) === day) &&
      (field.mode === 'date' || (shown.hour === time.hour && shown.minute === time.minute));
    this.#close();
    if (!same) this.#set(toValue({ ...date, ...time, second: 0, millisecond: 0 }, field));
  }

  #openDialog(): void {
    this.#armed = undefined;
    const shown = this.#shown();
    const now = today();
    this.#focusDay = clampDay(dayOf(shown && this.#field.mode !== 'time' ? shown : now), this.#min, this.#max);
    this.#hour = shown?.hour ?? (this.#field.mode === 'time' ? now.hour : 0);
    this.#minute = shown?.minute ?? 0;
    this.#open = true;
    this.#moveFocus = true;
    this.requestUpdate();
  }

  #close(): void {
    // Closed in the state first: a render before the `close` event must not open it again.
    this.#open = false;
    this.querySelector('dialog')?.close();
    this.querySelector<HTMLButtonElement>('.cms-datepicker-open')?.focus();
  }

  /** The dialog closed (a choice, Cancel, Escape, a click outside): the focus goes back to the button. */
  #closed(): void {
    this.#open = false;
    this.requestUpdate();
    this.querySelector<HTMLButtonElement>('.cms-datepicker-open')?.focus();
  }

  #moveTo(day: Day, focus: boolean): void {
    this.#focusDay = clampDay(day, this.#min, this.#max);
    this.#moveFocus = focus;
    this.requestUpdate();
  }

  /** The keys of the date grid (WAI-ARIA APG, "Date Picker Dialog"). */
  #gridKey(event: KeyboardEvent): void {
    const day = this.#focusDay;
    const rtl = getComputedStyle(this).direction === 'rtl';
    const firstDay = this.#view.field.firstDay ?? 0;
    let next: Day;
    switch (event.key) {
      case 'ArrowRight':
        next = addDays(day, rtl ? -1 : 1);
        break;
      case 'ArrowLeft':
        next = addDays(day, rtl ? 1 : -1);
        break;
      case 'ArrowDown':
        next = addDays(day, 7);
        break;
      case 'ArrowUp':
        next = addDays(day, -7);
        break;
      case 'PageDown':
        next = addMonths(day, event.shiftKey ? 12 : 1);
        break;
      case 'PageUp':
        next = addMonths(day, event.shiftKey ? -12 : -1);
        break;
      case 'Home':
        next = weekBounds(day, firstDay)[0];
        break;
      case 'End':
        next = weekBounds(day, firstDay)[1];
        break;
      case 'Enter':
      case ' ':
        // Chosen on the key's release: on its press, the focus would be back on the open button
        // before the press ends, and the button would take the rest of it as a click.
        event.preventDefault();
        this.#armed = event.key;
        return;
      default:
        return;
    }
    event.preventDefault();
    this.#moveTo(next, true);
  }

  #gridKeyUp(event: KeyboardEvent): void {
    if (this.#armed !== event.key) return;
    this.#armed = undefined;
    event.preventDefault();
    this.#choose(this.#focusDay);
  }

  /** The dialog is modal: Tab stays in it (the browser's top layer also keeps the page inert). */
  #trapTab(event: KeyboardEvent): void {
    if (event.key !== 'Tab') return;
    const dialog = event.currentTarget as HTMLDialogElement;
    const focusable = [...dialog.querySelectorAll<HTMLElement>('button, select, [tabindex="0"]')].filter(
      (element) => !(element as HTMLButtonElement).disabled,
    );
    const first = focusable[0];
    const last = focusable.at(-1);
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last?.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first?.focus();
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#open = false;
  }

  protected override updated(): void {
    const dialog = this.querySelector<HTMLDialogElement>('dialog');
    if (this.#open && dialog && !dialog.open) dialog.showModal();
    if (this.#moveFocus && dialog) {
      this.#moveFocus = false;
      const target =
        this.#field.mode === 'time'
          ? dialog.querySelector<HTMLElement>('select')
          : dialog.querySelector<HTMLElement>(`[data-day="${this.#focusDay}"]`);
      target?.focus();
    }
  }

  override render(): TemplateResult {
    const view = this.#view;
    const field = this.#field;
    const format = this.#format;
    const shown = this.#shown();
    const unreadable = this.#unreadable();
    const value = view.value;
    const text = this.#draft ?? (shown ? formatWallClock(shown, format) : typeof value === 'string' ? value : '');
    const now = today();
    const example = formatWallClock({ ...now, hour: 14, minute: 30, second: 0 }, format);
    const hintId = `${this.#uid}-hint`;
    const describedBy = [view.describedBy, hintId].filter(Boolean).join(' ');
    const choose = field.mode === 'time' ? this.#t('time_choose') : this.#t('date_choose');
    return html`<div class="cms-datepicker">
        <input
          type="text"
          class="cms-datepicker-input"
          id=${view.id}
          autocomplete="off"
          spellcheck="false"
          .value=${live(text)}
          ?readonly=${view.readOnly}
          aria-required=${view.field.required ? 'true' : nothing}
          aria-invalid=${view.invalid || unreadable ? 'true' : nothing}
          aria-describedby=${describedBy}
          @input=${(event: Event) => {
            this.#draft = (event.target as HTMLInputElement).value;
          }}
          @change=${(event: Event) => this.#commit((event.target as HTMLInputElement).value)}
          @keydown=${(event: KeyboardEvent) => {
            if (view.readOnly) return;
            if (event.key === 'Enter') this.#commit((event.target as HTMLInputElement).value);
            else if (event.key === 'ArrowDown' && event.altKey) {
              event.preventDefault();
              this.#openDialog();
            }
          }}
        />
        ${
          view.readOnly
            ? nothing
            : html`<button
                type="button"
                class="cms-button cms-datepicker-open"
                aria-haspopup="dialog"
                aria-label=${choose}
                title=${choose}
                @click=${() => this.#openDialog()}
              >
                ${field.mode === 'time' ? clockIcon : calendarIcon}
              </button>`
        }
      </div>
      <p class="cms-datepicker-hint ${unreadable ? 'cms-datepicker-unreadable' : ''}" id=${hintId}>${
        unreadable ? this.#t('date_not_understood', { example }) : this.#t('date_format_hint', { example })
      }</p>
      ${this.#open ? this.#dialog(choose) : nothing}`;
  }

  #dialog(title: string): TemplateResult {
    const mode = this.#field.mode;
    const titleId = `${this.#uid}-title`;
    return html`<dialog
      class="cms-dialog cms-datepicker-dialog"
      aria-labelledby=${titleId}
      @close=${() => this.#closed()}
      @keydown=${(event: KeyboardEvent) => this.#trapTab(event)}
      @click=${(event: MouseEvent) => {
        // The dialog element itself is only hit outside its content: a click on the backdrop.
        if (event.target === event.currentTarget) this.#close();
      }}
    >
      <div class="cms-datepicker-panel">
        <h2 class="cms-datepicker-title" id=${titleId}>${title}</h2>
        ${mode === 'time' ? nothing : this.#calendar()} ${mode === 'date' ? nothing : this.#timeSelects()}
        ${mode === 'time' ? nothing : html`<p class="cms-datepicker-keys">${this.#t('date_keys_help')}</p>`}
        <div class="cms-dialog-buttons">
          <button type="button" class="cms-button" @click=${() => this.#close()}>${this.#t('cancel')}</button>
          <button type="button" class="cms-button cms-primary" @click=${() => this.#choose(this.#focusDay)}>${this.#t('date_apply')}</button>
        </div>
      </div>
    </dialog>`;
  }

  #calendar(): TemplateResult {
    const locale = this.#locale;
    const field = this.#view.field;
    const firstDay = field.firstDay ?? 0;
    const { year, month } = splitDay(this.#focusDay);
    const min = this.#min;
    const max = this.#max;
    const shown = this.#shown();
    const selected = shown ? dayOf(shown) : undefined;
    const todayDay = dayOf(today());
    const monthStart = `${String(year).padStart(4, '0')}-${pad(month)}`;
    const atMin = !!min && monthStart <= min.slice(0, 7);
    const atMax = !!max && monthStart >= max.slice(0, 7);
    const years = yearOptions(field.yearRange, today().year, year, min, max);
    const gridId = `${this.#uid}-grid`;
    const setMonth = (nextYear: number, nextMonth: number) => {
      const { day } = splitDay(this.#focusDay);
      this.#moveTo(`${String(nextYear).padStart(4, '0')}-${pad(nextMonth)}-${pad(Math.min(day, daysInMonth(nextYear, nextMonth)))}`, false);
    };
    // A week of days from a Sunday (27 September 2026), turned to start on firstDay.
    const weekdays = Array.from({ length: 7 }, (_, i) => addDays('2026-09-27', (firstDay + i) % 7));
    return html`<div class="cms-datepicker-nav">
        <button
          type="button"
          class="cms-button cms-datepicker-step cms-datepicker-prev"
          aria-label=${this.#t('date_previous_month')}
          aria-disabled=${atMin ? 'true' : nothing}
          @click=${() => !atMin && this.#moveTo(addMonths(this.#focusDay, -1), false)}
        >
          <span aria-hidden="true">‹</span>
        </button>
        <select
          aria-label=${this.#t('date_month')}
          @change=${(event: Event) => setMonth(year, Number((event.target as HTMLSelectElement).value))}
        >
          ${Array.from(
            { length: 12 },
            (_, i) =>
              html`<option value=${i + 1} .selected=${i + 1 === month}>
                ${writeDay(locale, `2026-${pad(i + 1)}-01`, { month: 'long' })}
              </option>`,
          )}
        </select>
        <select
          aria-label=${this.#t('date_year')}
          @change=${(event: Event) => setMonth(Number((event.target as HTMLSelectElement).value), month)}
        >
          ${years.map((option) => html`<option value=${option} .selected=${option === year}>${option}</option>`)}
        </select>
        <button
          type="button"
          class="cms-button cms-datepicker-step cms-datepicker-next"
          aria-label=${this.#t('date_next_month')}
          aria-disabled=${atMax ? 'true' : nothing}
          @click=${() => !atMax && this.#moveTo(addMonths(this.#focusDay, 1), false)}
        >
          <span aria-hidden="true">›</span>
        </button>
      </div>
      <table
        class="cms-datepicker-grid"
        role="grid"
        id=${gridId}
        aria-label=${writeDay(locale, `${monthStart}-01`, { month: 'long', year: 'numeric' })}
        @keydown=${(event: KeyboardEvent) => this.#gridKey(event)}
        @keyup=${(event: KeyboardEvent) => this.#gridKeyUp(event)}
      >
        <thead>
          <tr>
            ${weekdays.map(
              (day) =>
                html`<th scope="col" abbr=${writeDay(locale, day, { weekday: 'long' })}>
                  ${writeDay(locale, day, { weekday: 'short' })}
                </th>`,
            )}
          </tr>
        </thead>
        <tbody>
          ${monthGrid(year, month, firstDay).map(
            (week) =>
              html`<tr>
                ${week.map((day) => {
                  if (!day) return html`<td class="cms-datepicker-pad"></td>`;
                  const disabled = (!!min && day < min) || (!!max && day > max);
                  return html`<td
                    data-day=${day}
                    tabindex=${day === this.#focusDay ? '0' : '-1'}
                    aria-selected=${day === selected ? 'true' : 'false'}
                    aria-current=${day === todayDay ? 'date' : nothing}
                    aria-disabled=${disabled ? 'true' : nothing}
                    aria-label=${writeDay(locale, day, { dateStyle: 'full' })}
                    @click=${() => {
                      if (disabled) return;
                      this.#focusDay = day;
                      this.#choose(day);
                    }}
                  >
                    ${splitDay(day).day}
                  </td>`;
                })}
              </tr>`,
          )}
        </tbody>
      </table>`;
  }

  #timeSelects(): TemplateResult {
    const twelve = this.#twelveHour;
    const hour = this.#hour;
    const id = this.#uid;
    const hours = twelve ? Array.from({ length: 12 }, (_, i) => i + 1) : Array.from({ length: 24 }, (_, i) => i);
    const shownHour = twelve ? hour % 12 || 12 : hour;
    const pm = hour >= 12;
    return html`<div class="cms-datepicker-time">
      <label for="${id}-hour">${this.#t('time_hour')}</label>
      <select
        id="${id}-hour"
        @change=${(event: Event) => {
          const value = Number((event.target as HTMLSelectElement).value);
          this.#hour = twelve ? (value % 12) + (this.#hour >= 12 ? 12 : 0) : value;
          this.requestUpdate();
        }}
      >
        ${hours.map((option) => html`<option value=${option} .selected=${option === shownHour}>${twelve ? option : pad(option)}</option>`)}
      </select>
      <label for="${id}-minute">${this.#t('time_minute')}</label>
      <select
        id="${id}-minute"
        @change=${(event: Event) => {
          this.#minute = Number((event.target as HTMLSelectElement).value);
          this.requestUpdate();
        }}
      >
        ${Array.from({ length: 60 }, (_, i) => html`<option value=${i} .selected=${i === this.#minute}>${pad(i)}</option>`)}
      </select>
      ${
        twelve
          ? html`<label for="${id}-period">${this.#t('time_period')}</label>
              <select
                id="${id}-period"
                @change=${(event: Event) => {
                  this.#hour = (this.#hour % 12) + ((event.target as HTMLSelectElement).value === 'pm' ? 12 : 0);
                  this.requestUpdate();
                }}
              >
                <option value="am" .selected=${!pm}>AM</option>
                <option value="pm" .selected=${pm}>PM</option>
              </select>`
          : nothing
      }
    </div>`;
  }
}

if (!customElements.get('cms-datepicker')) customElements.define('cms-datepicker', CmsDatepicker);

const module: FieldModule = {
  render: (view) => html`<cms-datepicker .view=${view}></cms-datepicker>`,
  empty: () => null,
  /** An empty text clears the column (`null`); anything else is sent as it is. */
  toBody: (value) => (value === '' ? null : value),
};

export default module;
