import { html, nothing, type TemplateResult } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import { ApiError } from '../api.ts';
import type { CmsApp, LeaveGuard } from '../app.ts';
import { LightElement } from '../element.ts';
import { type Move, type Outcome, type ReorderNode, ReorderTree, type Row } from './reorder-logic.ts';
import './reorder.css';

interface ReorderMeta {
  total: number;
  tree: boolean;
  max_depth: number;
  title?: string;
}

/** The most nodes one save takes (docs/reorder.md, "Saving an order"). */
const MAX_NODES = 10_000;
/** Above this many visible rows only those in view are rendered (docs/admin-ui.md, "Reorder"). */
const VIRTUAL_FROM = 500;
/** Rows rendered beyond the view on each side, so that scrolling shows no gap. */
const OVERSCAN = 20;
/** Stale saves re-applied in a row before giving up (another admin saving again and again). */
const REBASES = 3;

/** A pointer drag: the node, and where it would go. */
interface Drag {
  id: number;
  pointer: number;
  target: { index: number; after: boolean } | undefined;
}

/**
 * The reorder screen of a controller (docs/admin-ui.md, "Reorder"): the set of `GET /{ctl}/reorder`
 * as an APG treeview with a roving focus, virtualized above 500 visible rows; a keyboard grab mode,
 * pointer drag and a "Move to" dialog, all through the one model of reorder-logic.ts; saving
 * posts the whole set, and a 409 `reorder_stale` reads the set again and re-applies the admin's
 * moves. The unsaved order is guarded like a form.
 */
export class CmsReorder extends LightElement implements LeaveGuard {
  app!: CmsApp;
  ctl = '';
  meta: ReorderMeta | undefined;
  model: ReorderTree | undefined;
  /** The nodes as last read or saved: what Reset goes back to. */
  #served: ReorderNode[] = [];
  #savedSignature = '';
  #dirty = false;
  collapsed = new Set<number>();
  active: number | undefined;
  grab: { id: number; snapshot: ReturnType<ReorderTree['snapshot']> } | undefined;
  drag: Drag | undefined;
  refused: 403 | 404 | undefined;
  error: string | undefined;
  /** The refusal of a save: its message and one line per node. */
  problems: string[] = [];
  /** Moves a rebase could not re-apply, described. */
  unplaced: string[] = [];
  status = '';
  #announced = '';
  saving = false;
  /** The move dialog's node and its error. */
  moving: { id: number; error: string } | undefined;
  #rowHeight = 40;
  #scrollTop = 0;
  #viewHeight = 600;
  #rows: Row[] = [];
  #rowsValid = false;
  #focusAfterRender = false;
  #typed = '';
  #typedTimer: ReturnType<typeof setTimeout> | undefined;
  #controller: AbortController | undefined;
  #onBeforeUnload = (event: BeforeUnloadEvent) => {
    event.preventDefault();
  };

  /** Another language: the strings render again and the title is read again (the order stays). */
  readonly #onLanguage = () => {
    this.requestUpdate();
    if (!this.meta || this.saving) return;
    void this.app.api
      .call<ReorderNode[]>('GET', `/${this.ctl}/reorder`)
      .then((answer) => {
        this.meta = { ...this.meta!, title: (answer.meta as unknown as ReorderMeta).title };
        document.title = this.#title();
        this.requestUpdate();
      })
      .catch(() => undefined);
  };

  override connectedCallback(): void {
    super.connectedCallback();
    this.app.guard = this;
    this.app.addEventListener('query-changed', this.#onLanguage);
    void this.load();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    if (this.app.guard === this) this.app.guard = undefined;
    this.app.removeEventListener('query-changed', this.#onLanguage);
    window.removeEventListener('beforeunload', this.#onBeforeUnload);
    this.#controller?.abort();
    clearTimeout(this.#typedTimer);
  }

  // ---- the guard (docs/admin-ui.md, "Edits are never lost") ----

  get dirty(): boolean {
    return this.#dirty;
  }

  async save(_close: boolean): Promise<boolean> {
    return this.#save();
  }

  discard(): void {
    this.#read(this.#served);
    this.unplaced = [];
    this.problems = [];
  }

  #changed(): void {
    this.#rowsValid = false;
    const dirty = Boolean(this.model && this.model.signature() !== this.#savedSignature);
    if (dirty !== this.#dirty) {
      this.#dirty = dirty;
      if (dirty) window.addEventListener('beforeunload', this.#onBeforeUnload);
      else window.removeEventListener('beforeunload', this.#onBeforeUnload);
    }
    this.requestUpdate();
  }

  announce(message: string): void {
    // The same text twice is still said twice.
    this.status = message === this.#announced ? `${message}\u00a0` : message;
    this.#announced = this.status;
    this.requestUpdate();
  }

  // ---- loading and saving ----

  async #fetch(): Promise<{ nodes: ReorderNode[]; meta: ReorderMeta }> {
    this.#controller?.abort();
    const controller = new AbortController();
    this.#controller = controller;
    const answer = await this.app.api.call<ReorderNode[]>('GET', `/${this.ctl}/reorder`, { signal: controller.signal });
    return { nodes: answer.data, meta: answer.meta as unknown as ReorderMeta };
  }

  async load(): Promise<void> {
    try {
      const { nodes, meta } = await this.#fetch();
      this.meta = meta;
      document.title = this.#title();
      this.#read(nodes);
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return;
      if (error instanceof ApiError && (error.status === 403 || error.status === 404)) this.refused = error.status;
      this.error = error instanceof Error ? error.message : String(error);
      this.requestUpdate();
    }
  }

  /** A set read (or saved): the new model, nothing changed. */
  #read(nodes: ReorderNode[]): void {
    const meta = this.meta!;
    this.#served = nodes;
    this.model = new ReorderTree(nodes, meta.tree, meta.max_depth);
    this.#savedSignature = this.model.signature();
    this.grab = undefined;
    if (this.active === undefined || !this.model.has(this.active)) this.active = this.model.order()[0];
    this.#changed();
  }

  async #save(): Promise<boolean> {
    const model = this.model;
    if (!model || this.saving) return false;
    if (this.grab) this.#drop();
    this.saving = true;
    this.problems = [];
    this.error = undefined;
    this.requestUpdate();
    try {
      let current = model;
      let rebased = '';
      for (let attempt = 0; ; attempt++) {
        try {
          const answer = await this.app.api.call<ReorderNode[]>('POST', `/${this.ctl}/reorder`, { body: current.body() });
          this.#read(answer.data);
          this.unplaced = [];
          this.announce(`${rebased}${this.app.t('reorder_saved')}`);
          return true;
        } catch (error) {
          if (!(error instanceof ApiError) || error.status !== 409 || error.code !== 'reorder_stale' || attempt >= REBASES) throw error;
          // Read the set again and re-apply the admin's moves by id (docs/admin-ui.md, "Reorder").
          const moves = current.moves;
          const labels = current.labels;
          const { nodes, meta } = await this.#fetch();
          this.meta = meta;
          const fresh = new ReorderTree(nodes, meta.tree, meta.max_depth);
          const unplaced = fresh.replay(moves);
          this.#served = nodes;
          this.#savedSignature = new ReorderTree(nodes, meta.tree, meta.max_depth).signature();
          this.model = fresh;
          current = fresh;
          if (this.active === undefined || !fresh.has(this.active)) this.active = fresh.order()[0];
          this.#changed();
          if (unplaced.length > 0) {
            this.unplaced = unplaced.map((move) => this.#describe(move, labels, fresh));
            this.announce(`${this.app.t('reorder_unplaced_intro')} ${this.unplaced.join('; ')}`);
            return false;
          }
          this.unplaced = [];
          rebased = `${this.app.i18n!.t('reorder_stale_rebased', {}, moves.length)} `;
          this.announce(rebased);
          if (this.meta.total > MAX_NODES) return false;
        }
      }
    } catch (error) {
      this.#refusal(error);
      return false;
    } finally {
      this.saving = false;
      this.requestUpdate();
    }
  }

  /** A save's refusal: the message, and each node's problem with its label (a 422's details). */
  #refusal(error: unknown): void {
    if (!(error instanceof ApiError)) {
      this.error = String(error);
      return;
    }
    this.error = error.message;
    const order = this.model?.order() ?? [];
    this.problems = Object.entries(error.details).map(([key, messages]) => {
      const match = /^nodes\.(\d+)/.exec(key);
      const id = match ? order[Number(match[1])] : undefined;
      const label = id === undefined ? key : (this.model?.labels.get(id) ?? key);
      return `${label}: ${messages.join(' ')}`;
    });
    this.requestUpdate();
    void this.updateComplete.then(() => this.querySelector<HTMLElement>('.cms-reorder-alert')?.focus());
  }

  /** "X after Y under Z" for a move that could not be re-applied. */
  #describe(move: Move, labels: ReadonlyMap<number, string>, fresh: ReorderTree): string {
    const name = (id: number) => fresh.labels.get(id) ?? labels.get(id) ?? this.app.t('reorder_removed');
    const params = {
      label: name(move.id),
      after: move.after === null ? '' : name(move.after),
      parent: move.parent === null ? '' : name(move.parent),
    };
    if (move.parent === null)
      return move.after === null ? this.app.t('reorder_move_first_top', params) : this.app.t('reorder_move_after_top', params);
    return move.after === null ? this.app.t('reorder_move_first_under', params) : this.app.t('reorder_move_after_under', params);
  }

  #reset(): void {
    this.discard();
    this.announce(this.app.t('reorder_reset_done'));
  }

  // ---- moves ----

  #label(id: number): string {
    return this.model?.labels.get(id) ?? '';
  }

  /** Says where a node now is, or why it could not move. */
  #after(id: number, outcome: Outcome): void {
    const model = this.model!;
    const label = this.#label(id);
    if (!outcome.ok) {
      const reason = outcome.reason;
      const params = { label };
      if (reason === 'first') this.announce(this.app.t('reorder_refused_first', params));
      else if (reason === 'last') this.announce(this.app.t('reorder_refused_last', params));
      else if (reason === 'no_previous') this.announce(this.app.t('reorder_refused_no_previous', params));
      else if (reason === 'root') this.announce(this.app.t('reorder_refused_root', params));
      else if (reason === 'own_descendant') this.announce(this.app.t('reorder_refused_own_descendant', params));
      else if (reason === 'flat') this.announce(this.app.t('reorder_refused_flat'));
      else this.announce(this.app.i18n!.t('reorder_refused_too_deep', params, model.maxDepth));
      return;
    }
    // The ancestors open, so that the node stays in view.
    for (let at = model.parentOf(id); at !== null; at = model.parentOf(at)) this.collapsed.delete(at);
    this.#changed();
    this.announce(this.#where(id));
    this.#focus(id);
  }

  #where(id: number): string {
    const model = this.model!;
    const { parent, index } = model.placeOf(id);
    const params = { label: this.#label(id), position: index + 1, count: model.childrenOf(parent).length };
    if (!model.tree) return this.app.t('reorder_moved', params);
    if (parent === null) return this.app.t('reorder_moved_top', params);
    return this.app.t('reorder_moved_under', { ...params, parent: this.#label(parent) });
  }

  #grab(id: number): void {
    const model = this.model!;
    this.grab = { id, snapshot: model.snapshot() };
    const { parent, index } = model.placeOf(id);
    this.announce(this.app.t('reorder_grabbed', { label: this.#label(id), position: index + 1, count: model.childrenOf(parent).length }));
  }

  #drop(): void {
    const grab = this.grab;
    if (!grab) return;
    this.grab = undefined;
    this.announce(`${this.app.t('reorder_dropped', { label: this.#label(grab.id) })} ${this.#where(grab.id)}`);
  }

  #cancel(): void {
    const grab = this.grab;
    if (!grab) return;
    this.grab = undefined;
    this.model!.restore(grab.snapshot);
    this.#changed();
    this.announce(this.app.t('reorder_cancelled', { label: this.#label(grab.id) }));
    this.#focus(grab.id);
  }

  // ---- focus and the rows in view ----

  get rows(): Row[] {
    if (!this.#rowsValid && this.model) {
      this.#rows = this.model.rows(this.collapsed);
      this.#rowsValid = true;
    }
    return this.#rows;
  }

  #scroller(): HTMLElement | null {
    return this.querySelector<HTMLElement>('.cms-reorder-scroll');
  }

  /** Moves the roving focus to a node's row, scrolling it into view first. */
  #focus(id: number): void {
    this.active = id;
    const index = this.rows.findIndex((row) => row.id === id);
    const scroller = this.#scroller();
    if (scroller && index >= 0) {
      const top = index * this.#rowHeight;
      if (top < scroller.scrollTop) scroller.scrollTop = top;
      else if (top + this.#rowHeight > scroller.scrollTop + scroller.clientHeight)
        scroller.scrollTop = top + this.#rowHeight - scroller.clientHeight;
      this.#scrollTop = scroller.scrollTop;
    }
    this.#focusAfterRender = true;
    this.requestUpdate();
  }

  override updated(): void {
    this.#layout();
    const scroller = this.#scroller();
    if (scroller) {
      this.#viewHeight = scroller.clientHeight || this.#viewHeight;
      const row = scroller.querySelector<HTMLElement>('[role="treeitem"]');
      if (row && row.offsetHeight > 0 && row.offsetHeight !== this.#rowHeight) {
        this.#rowHeight = row.offsetHeight;
        this.requestUpdate();
      }
    }
    if (!this.#focusAfterRender) return;
    this.#focusAfterRender = false;
    const row = this.querySelector<HTMLElement>(`#cms-reorder-row-${this.active}`);
    row?.focus({ preventScroll: true });
    row?.scrollIntoView({ block: 'nearest' });
  }

  /**
   * Indents, spacer heights and the drop line, set through the CSSOM: the application's content
   * security policy refuses inline `style` attributes (docs/admin-ui.md, "Security").
   */
  #layout(): void {
    for (const row of this.querySelectorAll<HTMLElement>('.cms-reorder-row')) {
      row.style.setProperty('--cms-level', String(Number(row.getAttribute('aria-level')) - 1));
    }
    for (const element of this.querySelectorAll<HTMLElement>('.cms-reorder-spacer, .cms-reorder-indicator')) {
      const offset = `${Number(element.dataset.rows) * this.#rowHeight}px`;
      if (element.classList.contains('cms-reorder-spacer')) element.style.blockSize = offset;
      else element.style.insetBlockStart = offset;
    }
  }

  #onScroll(event: Event): void {
    const top = (event.currentTarget as HTMLElement).scrollTop;
    if (Math.abs(top - this.#scrollTop) < this.#rowHeight / 2) return;
    this.#scrollTop = top;
    if (this.rows.length > VIRTUAL_FROM) this.requestUpdate();
  }

  #onKey(event: KeyboardEvent): void {
    const model = this.model;
    const rows = this.rows;
    if (!model || this.active === undefined) return;
    // While a save is under way the order stays as sent; the focus still moves.
    if (this.saving && (this.grab || event.key === ' ' || event.key === 'Enter')) {
      event.preventDefault();
      return;
    }
    const id = this.active;
    const index = rows.findIndex((row) => row.id === id);
    const row = rows[index];
    if (!row) return;
    // Right to left, the arrows swap sides: → goes out, ← goes in (APG treeview).
    const rtl = this.app.i18n?.dir === 'rtl';
    const key = rtl && event.key === 'ArrowLeft' ? 'ArrowRight' : rtl && event.key === 'ArrowRight' ? 'ArrowLeft' : event.key;
    if (this.grab) {
      let outcome: Outcome | undefined;
      if (key === 'ArrowUp') outcome = model.moveUp(id);
      else if (key === 'ArrowDown') outcome = model.moveDown(id);
      // In a flat list the side arrows say there are no levels; Tab leaves the list there (it drops).
      else if (key === 'ArrowRight' || (key === 'Tab' && !event.shiftKey && model.tree)) outcome = model.indent(id);
      else if (key === 'ArrowLeft' || (key === 'Tab' && event.shiftKey && model.tree)) outcome = model.outdent(id);
      else if (key === ' ' || key === 'Enter') {
        event.preventDefault();
        this.#drop();
        return;
      } else if (key === 'Escape') {
        event.preventDefault();
        this.#cancel();
        return;
      } else return;
      event.preventDefault();
      this.#after(id, outcome);
      return;
    }
    let next: number | undefined;
    if (key === 'ArrowDown') next = rows[index + 1]?.id;
    else if (key === 'ArrowUp') next = rows[index - 1]?.id;
    else if (key === 'Home') next = rows[0]?.id;
    else if (key === 'End') next = rows.at(-1)?.id;
    else if (key === 'ArrowRight' && row.hasChildren) {
      if (!row.expanded) this.#toggle(id);
      else next = rows[index + 1]?.id;
    } else if (key === 'ArrowLeft') {
      if (row.expanded) this.#toggle(id);
      else next = model.parentOf(id) ?? undefined;
    } else if (key === ' ' || key === 'Enter') {
      event.preventDefault();
      this.#grab(id);
      this.requestUpdate();
      return;
    } else if (key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey) next = this.#typeahead(key, index);
    else return;
    event.preventDefault();
    if (next !== undefined) this.#focus(next);
  }

  /** Typeahead (APG treeview): the next row whose label starts with what was typed in the last half second. */
  #typeahead(key: string, index: number): number | undefined {
    clearTimeout(this.#typedTimer);
    this.#typedTimer = setTimeout(() => {
      this.#typed = '';
    }, 500);
    this.#typed += key.toLowerCase();
    const rows = this.rows;
    // A first letter looks past the focused row; more letters may stay on it.
    const from = this.#typed.length === 1 ? index + 1 : index;
    for (let step = 0; step < rows.length; step++) {
      const row = rows[(from + step) % rows.length]!;
      if (row.label.toLowerCase().startsWith(this.#typed)) return row.id;
    }
    return undefined;
  }

  /** Leaving the tree in grab mode (a click elsewhere, Tab in a flat list) drops the node where it is. */
  #onFocusOut(event: FocusEvent): void {
    if (!this.grab) return;
    const tree = event.currentTarget as HTMLElement;
    // Checked once the move has rendered: a row moved in the page loses the focus for a moment.
    void this.updateComplete.then(() =>
      requestAnimationFrame(() => {
        if (this.grab && !tree.contains(document.activeElement)) {
          this.#drop();
          this.requestUpdate();
        }
      }),
    );
  }

  #toggle(id: number): void {
    if (this.collapsed.has(id)) this.collapsed.delete(id);
    else this.collapsed.add(id);
    this.#rowsValid = false;
    this.#focus(id);
  }

  // ---- pointer drag ----

  #onPointerDown(event: PointerEvent, id: number): void {
    if (event.button !== 0 || !this.model || this.saving) return;
    event.preventDefault();
    if (this.grab) this.#drop();
    (event.currentTarget as HTMLElement).setPointerCapture(event.pointerId);
    this.drag = { id, pointer: event.pointerId, target: undefined };
    this.active = id;
    this.requestUpdate();
  }

  #onPointerMove(event: PointerEvent): void {
    const drag = this.drag;
    const tree = this.querySelector<HTMLElement>('.cms-reorder-tree');
    if (!drag || event.pointerId !== drag.pointer || !tree) return;
    const offset = event.clientY - tree.getBoundingClientRect().top;
    const rows = this.rows;
    const index = Math.max(0, Math.min(rows.length - 1, Math.floor(offset / this.#rowHeight)));
    const after = offset - index * this.#rowHeight > this.#rowHeight / 2;
    const target = rows[index];
    // Never into its own subtree.
    const valid = target !== undefined && !this.model!.isWithin(target.id, drag.id);
    const next = valid ? { index, after } : undefined;
    if (next?.index !== drag.target?.index || next?.after !== drag.target?.after) {
      drag.target = next;
      this.requestUpdate();
    }
  }

  #onPointerUp(event: PointerEvent): void {
    const drag = this.drag;
    if (!drag || event.pointerId !== drag.pointer) return;
    this.drag = undefined;
    const model = this.model!;
    const target = drag.target && this.rows[drag.target.index];
    if (!target || target.id === drag.id) {
      this.requestUpdate();
      return;
    }
    const parent = model.parentOf(target.id);
    const siblings = model.childrenOf(parent).filter((id) => id !== drag.id);
    const index = siblings.indexOf(target.id) + (drag.target!.after ? 1 : 0);
    this.#after(drag.id, model.place(drag.id, parent, index));
  }

  // ---- the move dialog ----

  #openMove(): void {
    if (this.active === undefined) return;
    if (this.grab) this.#drop();
    this.moving = { id: this.active, error: '' };
    this.requestUpdate();
    void this.updateComplete.then(() => {
      const dialog = this.querySelector<HTMLDialogElement>('#cms-reorder-move');
      if (dialog && !dialog.open) dialog.showModal();
    });
  }

  #closeMove(): void {
    this.querySelector<HTMLDialogElement>('#cms-reorder-move')?.close();
  }

  #submitMove(event: Event): void {
    event.preventDefault();
    const moving = this.moving;
    const model = this.model;
    if (!moving || !model) return;
    const form = event.currentTarget as HTMLFormElement;
    const parentValue = (form.elements.namedItem('parent') as HTMLSelectElement | null)?.value ?? '';
    const parent = parentValue === '' ? null : Number(parentValue);
    const count = model.childrenOf(parent).filter((id) => id !== moving.id).length + 1;
    const position = Number((form.elements.namedItem('position') as HTMLInputElement).value.trim());
    if (!Number.isInteger(position) || position < 1 || position > count) {
      moving.error = this.app.t('reorder_position_invalid', { count });
      this.requestUpdate();
      void this.updateComplete.then(() => this.querySelector<HTMLInputElement>('#cms-reorder-position')?.focus());
      return;
    }
    const outcome = model.place(moving.id, parent, position - 1);
    if (!outcome.ok) {
      this.#after(moving.id, outcome);
      moving.error = this.status;
      this.requestUpdate();
      return;
    }
    this.#closeMove();
    this.#after(moving.id, outcome);
  }

  #moveDialog(): TemplateResult {
    const moving = this.moving;
    const model = this.model;
    if (!moving || !model)
      return html`<dialog id="cms-reorder-move" class="cms-dialog" aria-label=${this.app.t('reorder_move_to')}></dialog>`;
    const { parent, index } = model.placeOf(moving.id);
    const height = model.height(moving.id);
    const options = model.tree
      ? model.rows().filter((row) => !model.isWithin(row.id, moving.id) && (model.maxDepth === 0 || row.level + height <= model.maxDepth))
      : [];
    const count = model.childrenOf(parent).length;
    return html`<dialog
      id="cms-reorder-move"
      class="cms-dialog cms-reorder-dialog"
      aria-labelledby="cms-reorder-move-title"
      @close=${() => {
        this.moving = undefined;
        this.requestUpdate();
        this.querySelector<HTMLElement>('.cms-reorder-move-button')?.focus();
      }}
    >
      <form @submit=${(event: Event) => this.#submitMove(event)}>
        <h2 id="cms-reorder-move-title">${this.app.t('reorder_dialog_title', { label: this.#label(moving.id) })}</h2>
        ${
          model.tree
            ? html`<label for="cms-reorder-parent">${this.app.t('reorder_parent')}</label>
              <select id="cms-reorder-parent" name="parent">
                <option value="" ?selected=${parent === null}>${this.app.t('reorder_top_level')}</option>
                ${options.map(
                  (row) =>
                    html`<option value=${row.id} ?selected=${row.id === parent}>${'\u2003'.repeat(row.level - 1)}${row.label}</option>`,
                )}
              </select>`
            : nothing
        }
        <label for="cms-reorder-position">${this.app.t('reorder_position', { count: Math.max(count, 1) })}</label>
        <input
          id="cms-reorder-position"
          name="position"
          inputmode="numeric"
          autocomplete="off"
          .value=${String(index + 1)}
          aria-invalid=${moving.error ? 'true' : 'false'}
          aria-describedby="cms-reorder-move-error"
        />
        <p id="cms-reorder-move-error" class="cms-reorder-error" role="alert">${moving.error}</p>
        <div class="cms-dialog-buttons">
          <button type="button" class="cms-button" @click=${() => this.#closeMove()}>${this.app.t('cancel')}</button>
          <button type="submit" class="cms-button cms-primary">${this.app.t('reorder_move')}</button>
        </div>
      </form>
    </dialog>`;
  }

  // ---- rendering ----

  #title(): string {
    return this.meta?.title || this.app.t('reorder_title');
  }

  override render(): TemplateResult {
    const app = this.app;
    const list = app.ctlPath(this.ctl);
    const back = html`<a class="cms-reorder-back" href=${list}>${app.t('back_to_list')}</a>`;
    if (this.refused) return html`<h1 tabindex="-1">${app.t('reorder_title')}</h1><p>${this.error ?? ''}</p>${back}`;
    const meta = this.meta;
    const model = this.model;
    const heading = html`<h1 tabindex="-1">${meta ? this.#title() : app.t('loading')}</h1>`;
    if (!meta || !model) {
      return html`${heading}${this.error ? html`<div class="cms-alert" role="alert">${this.error}</div>${back}` : html`<p role="status">${app.t('loading')}</p>`}`;
    }
    if (meta.total > MAX_NODES) {
      return html`${heading}
        <p class="cms-reorder-too-large" role="status">${app.i18n!.t('reorder_too_large', { max: app.i18n!.number(MAX_NODES) }, meta.total)}</p>
        ${back}`;
    }
    return html`${heading}
      <div class="cms-toolbar cms-reorder-toolbar">
        <button type="button" class="cms-button cms-primary" ?disabled=${this.saving || !this.#dirty} @click=${() => void this.#save()}>${app.t('save')}</button>
        <button type="button" class="cms-button" ?disabled=${this.saving || !this.#dirty} @click=${() => this.#reset()}>${app.t('reorder_reset')}</button>
        <button type="button" class="cms-button cms-reorder-move-button" ?disabled=${this.active === undefined || this.saving} @click=${() => this.#openMove()}>
          ${app.t('reorder_move_to')}
        </button>
        ${back}
        ${this.#dirty ? html`<span class="cms-reorder-unsaved">${app.t('reorder_unsaved')}</span>` : nothing}
        <span class="cms-reorder-count">${app.i18n!.t('reorder_count', {}, model.size)}</span>
      </div>
      <p class="cms-status" role="status">${this.status}</p>
      ${
        this.error
          ? html`<div class="cms-alert cms-reorder-alert" role="alert" tabindex="-1">
            <p>${this.problems.length ? app.t('reorder_refused') : this.error}</p>
            ${this.problems.length ? html`<ul>${this.problems.map((problem) => html`<li>${problem}</li>`)}</ul>` : nothing}
          </div>`
          : nothing
      }
      ${
        this.unplaced.length
          ? html`<section class="cms-reorder-unplaced" aria-labelledby="cms-reorder-unplaced-title">
            <h2 id="cms-reorder-unplaced-title">${app.t('reorder_unplaced_title')}</h2>
            <p>${app.t('reorder_unplaced_intro')}</p>
            <ul>${this.unplaced.map((line) => html`<li>${line}</li>`)}</ul>
          </section>`
          : nothing
      }
      <p id="cms-reorder-help" class="cms-reorder-help">${model.tree ? app.t('reorder_help_tree') : app.t('reorder_help_flat')}</p>
      ${model.size === 0 ? html`<p class="cms-empty">${app.t('reorder_empty')}</p>` : this.#tree()}
      ${this.#moveDialog()}`;
  }

  #tree(): TemplateResult {
    const rows = this.rows;
    const height = this.#rowHeight;
    let ranges: [number, number][] = [[0, rows.length]];
    if (rows.length > VIRTUAL_FROM) {
      const first = Math.max(0, Math.floor(this.#scrollTop / height) - OVERSCAN);
      const last = Math.min(rows.length, Math.ceil((this.#scrollTop + this.#viewHeight) / height) + OVERSCAN);
      ranges = [[first, last]];
      // The focused row stays rendered wherever it is.
      const active = rows.findIndex((row) => row.id === this.active);
      if (active >= 0 && (active < first || active >= last)) {
        ranges.push([active, active + 1]);
        ranges.sort((a, b) => a[0] - b[0]);
      }
    }
    // Keyed by node, so that a row keeps its element (and the focus) as the window moves.
    const parts: { key: string; template: TemplateResult }[] = [];
    let at = 0;
    for (const [from, to] of ranges) {
      if (from > at) parts.push({ key: `s${at}`, template: this.#spacer(from - at) });
      for (let index = from; index < to; index++) parts.push({ key: String(rows[index]!.id), template: this.#row(rows[index]!) });
      at = to;
    }
    if (rows.length > at) parts.push({ key: `s${at}`, template: this.#spacer(rows.length - at) });
    const target = this.drag?.target;
    return html`<div class="cms-reorder-scroll" @scroll=${(event: Event) => this.#onScroll(event)}>
      <ul
        class="cms-reorder-tree ${this.grab ? 'cms-grabbing' : ''} ${this.drag ? 'cms-dragging' : ''}"
        role="tree"
        aria-label=${this.#title()}
        aria-describedby="cms-reorder-help"
        @keydown=${(event: KeyboardEvent) => this.#onKey(event)}
        @focusout=${(event: FocusEvent) => this.#onFocusOut(event)}
        @pointermove=${(event: PointerEvent) => this.#onPointerMove(event)}
        @pointerup=${(event: PointerEvent) => this.#onPointerUp(event)}
        @pointercancel=${() => {
          this.drag = undefined;
          this.requestUpdate();
        }}
      >
        ${repeat(
          parts,
          (part) => part.key,
          (part) => part.template,
        )}
      </ul>
      ${
        target
          ? html`<div
            class="cms-reorder-indicator"
            aria-hidden="true"
            data-rows=${target.index + (target.after ? 1 : 0)}
          ></div>`
          : nothing
      }
    </div>`;
  }

  #spacer(count: number): TemplateResult {
    return html`<li role="none" class="cms-reorder-spacer" data-rows=${count}></li>`;
  }

  #row(row: Row): TemplateResult {
    const active = row.id === this.active;
    const grabbed = this.grab?.id === row.id || this.drag?.id === row.id;
    return html`<li
      id="cms-reorder-row-${row.id}"
      class="cms-reorder-row ${grabbed ? 'cms-grabbed' : ''}"
      role="treeitem"
      aria-level=${row.level}
      aria-posinset=${row.posinset}
      aria-setsize=${row.setsize}
      aria-expanded=${row.hasChildren ? String(row.expanded) : nothing}
      aria-selected=${active ? 'true' : 'false'}
      tabindex=${active ? 0 : -1}
      @click=${() => this.#focus(row.id)}
    >
      <span
        class="cms-reorder-handle"
        aria-hidden="true"
        title=${this.app.t('reorder_drag')}
        @pointerdown=${(event: PointerEvent) => this.#onPointerDown(event, row.id)}
      ></span>
      ${
        row.hasChildren
          ? html`<span
            class="cms-reorder-toggle ${row.expanded ? 'cms-open' : ''}"
            aria-hidden="true"
            title=${this.app.t('reorder_expand')}
            @click=${(event: Event) => {
              event.stopPropagation();
              this.#toggle(row.id);
            }}
          ></span>`
          : html`<span class="cms-reorder-toggle-space" aria-hidden="true"></span>`
      }
      <span class="cms-reorder-label">${row.label}</span>
    </li>`;
  }
}

customElements.define('cms-reorder', CmsReorder);

declare global {
  interface HTMLElementTagNameMap {
    'cms-reorder': CmsReorder;
  }
}
