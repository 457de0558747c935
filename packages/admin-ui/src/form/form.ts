import { html, nothing, type TemplateResult } from 'lit';
import { ApiError } from '../api.ts';
import type { CmsApp, LeaveGuard } from '../app.ts';
import { LightElement } from '../element.ts';
import { targetPath } from '../router.ts';
import '../screens/partial.ts';
import type { FormField, FormView, RecordAction } from '../types.ts';
import { readDraft, removeDraft, writeDraft, type Draft } from './drafts.ts';
import { addScript, addStylesheet, loadFieldTypeElements } from './element-scripts.ts';
import './field.ts';
import type { CmsField, FieldOwner } from './field.ts';
import type { FieldModule } from './field-types.ts';
import { moduleOf, VALUELESS } from './modules.ts';
import { merge, newSessionKey, same, slug, type Values } from './state.ts';

type Context = 'create' | 'update' | 'preview';
type Notice = { field: string; message: string; locale?: string };
type Labels = Record<string, { label: string; value: unknown; locked?: boolean }[]>;

/** How often a changed form writes its draft, and when a tab coming back re-reads the record. */
const DRAFT_EVERY_MS = 2000;
const RECHECK_AFTER_MS = 60_000;

/**
 * The form screen (docs/admin-ui.md, "Forms"): create, update and preview of a record, and a
 * singleton's record, driven by the controller's FormView. It keeps what was served (`base`) and
 * what the admin has (`values`); "changed" is the difference, guarded on every exit, kept as a
 * draft in local storage, and merged three ways when the record changed under the admin (412).
 */
export class CmsForm extends LightElement implements FieldOwner, LeaveGuard {
  app!: CmsApp;
  ctl!: string;
  /** The record's id from the route; undefined on the create form (and before a singleton is read). */
  routeId: string | undefined;
  context: Context = 'update';
  singleton = false;
  /**
   * A settings code: the form edits `/settings/{code}` instead of a record (docs/admin-ui.md,
   * "Settings"): its schema and values come from the settings routes, it saves with `PUT` and
   * `If-Match`, and its password fields are secrets whose state (`meta.secrets`) the field shows.
   */
  settingsCode: string | undefined;
  /** The secrets' states of a settings form, by field name: `stored`, `env` or `empty`. */
  secrets: Record<string, string> = {};

  schema: FormView | undefined;
  fields: FormField[] = [];
  modules = new Map<string, FieldModule>();
  base: Values = {};
  values: Values = {};
  etag: string | undefined;
  labels: Labels = {};
  actions: RecordAction[] = [];
  errors: Record<string, string[]> = {};
  /** The error summary: a message and the refused fields (422, 403 with details). */
  summary: { message: string; fields: string[]; unplaced: string[] } | undefined;
  notices: Notice[] = [];
  failure: ApiError | undefined;
  refused: 403 | 404 | undefined;
  saving = false;
  status = '';
  /** Fields both the admin and someone else changed: the admin picks per field. */
  conflicts: { names: string[]; theirs: Values } | undefined;
  /** Fields taken over from someone else's save without asking. */
  taken: string[] = [];
  draftOffer: Draft | undefined;
  changedElsewhere = false;
  tab = '';
  pending: { kind: 'delete' } | { kind: 'action'; action: RecordAction } | undefined;
  sessionKey = newSessionKey();

  #changed = new Set<string>();
  /** Valueless fields holding work in the form session (FormHost's `setPending`). */
  #pending = new Set<string>();
  generation = 0;
  /** Preset targets still following their source (create form, not edited yet). */
  #following = new Set<string>();
  #draftTimer: ReturnType<typeof setTimeout> | undefined;
  /**
   * The admin the form was opened for: its drafts are written and read under that admin's key only,
   * even when another admin signs in while it is shown.
   */
  #admin: number | undefined;
  #hiddenAt = 0;
  #announced = '';
  readonly #onBeforeUnload = (event: BeforeUnloadEvent) => {
    event.preventDefault();
    event.returnValue = '';
  };
  /** The page goes away (reload, close): what changed since the last draft is written now. */
  readonly #onPageHide = () => {
    if (this.#draftTimer) {
      clearTimeout(this.#draftTimer);
      this.#draftTimer = undefined;
      this.#writeDraft();
    }
  };
  readonly #onVisibility = () => {
    if (document.visibilityState === 'hidden') this.#hiddenAt = Date.now();
    else if (this.#hiddenAt && Date.now() - this.#hiddenAt > RECHECK_AFTER_MS) void this.#recheck();
  };
  /** A new language: the schema's labels and messages again, the values as they are. */
  readonly #onLanguage = () => {
    const schema = this.schema;
    if (!schema || schema.meta.locale === this.app.i18n?.locale) return;
    void this.app.api.call<FormView>('GET', this.#schemaPath).then((answer) => {
      this.schema = answer.data;
      const byName = new Map(answer.data.fields.map((field) => [field.name, field]));
      this.fields = this.fields.map((field) => byName.get(field.name) ?? field);
      this.tab = this.fields.find((field) => field.tab)?.tab ?? '';
      this.requestUpdate();
      this.#refreshFields();
    });
  };
  /** Shortcuts on the whole page while the form is shown (the focus may be on the page itself), not under a dialog. */
  readonly #onKey = (event: KeyboardEvent) => {
    if (!(event.ctrlKey || event.metaKey) || event.altKey || this.context === 'preview') return;
    if (document.querySelector('dialog[open]')) return;
    if (event.key === 's' || event.key === 'S') {
      event.preventDefault();
      void this.save(false);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      void this.save(true);
    }
  };

  // ---- the host of the fields (docs/admin-ui.md, "Plugin elements: protocol v1") ----

  /** The record's id once read (FormHost's `recordId`); undefined on the create form. */
  get recordId(): number | undefined {
    const id = Number(this.base.id);
    return this.context !== 'create' && Number.isInteger(id) && id > 0 ? id : undefined;
  }

  fieldValue(name: string): unknown {
    return this.values[name];
  }

  labelsOf(name: string): readonly { label: string; value: unknown }[] {
    return this.labels[name] ?? [];
  }

  errorsOf(name: string): readonly string[] {
    return this.errors[name] ?? [];
  }

  filesOf(name: string): { base: string; headers: Record<string, string> } {
    return { base: `/${this.ctl}/${this.recordId ?? 0}/files/${name}`, headers: { 'X-Session-Key': this.sessionKey } };
  }

  setPending(name: string, pending: boolean): void {
    if (pending === this.#pending.has(name)) return;
    const wasDirty = this.dirty;
    if (pending) this.#pending.add(name);
    else this.#pending.delete(name);
    if (this.dirty !== wasDirty) this.#dirtyChanged();
    // Work held on the server under the session key is written down at once, not in 2 s: a reload
    // right after a deferred link must still find its key.
    this.#writeDraft();
  }

  /** A new generation: valueless fields read their lists again (after a save, a discard, a restore). */
  #nextGeneration(): void {
    this.generation++;
    this.#pending.clear();
    this.#refreshFields();
  }

  /** A settings secret's state (`stored`, `env`, `empty`); undefined outside a settings form. */
  secretState(name: string): string | undefined {
    return this.settingsCode === undefined ? undefined : (this.secrets[name] ?? 'empty');
  }

  isReadOnly(field: FormField): boolean {
    return this.context === 'preview' || Boolean(field.readOnly);
  }

  announce(message: string): void {
    // The same text twice is still said twice.
    this.status = message === this.#announced ? `${message}\u00a0` : message;
    this.#announced = this.status;
    this.requestUpdate();
  }

  setValue(name: string, value: unknown): void {
    this.#following.delete(name);
    this.#set(name, value);
    // A preset's source carries its targets along while they follow.
    for (const field of this.fields) {
      if (field.preset?.field !== name || !this.#following.has(field.name)) continue;
      const source = typeof value === 'string' ? value : '';
      this.#set(field.name, field.preset.type === 'slug' ? slug(source) : source);
    }
    // Fields that show another field's value (a money field's currency) render again.
    for (const field of this.fields) if (field.currencyFrom === name) this.#field(field.name)?.requestUpdate();
  }

  #set(name: string, value: unknown): void {
    const wasDirty = this.dirty;
    this.values = { ...this.values, [name]: value };
    if (same(this.base[name], value)) this.#changed.delete(name);
    else this.#changed.add(name);
    this.#field(name)?.requestUpdate();
    if (this.dirty !== wasDirty) this.#dirtyChanged();
    if (this.dirty) this.#scheduleDraft();
  }

  #field(name: string): CmsField | null {
    return this.querySelector<CmsField>(`cms-field[data-name="${CSS.escape(name)}"]`);
  }

  // ---- the guard (docs/admin-ui.md, "Edits are never lost") ----

  get dirty(): boolean {
    return this.#changed.size > 0 || this.#pending.size > 0;
  }

  discard(): void {
    this.#changed.clear();
    this.values = { ...this.base };
    // Deferred work of the old session key stays behind on the server, unreachable, and expires there.
    this.sessionKey = newSessionKey();
    this.#nextGeneration();
    this.#dirtyChanged();
    removeDraft(this.#admin!, this.#draftCtl, this.#draftId);
  }

  #dirtyChanged(): void {
    if (this.dirty) window.addEventListener('beforeunload', this.#onBeforeUnload);
    else window.removeEventListener('beforeunload', this.#onBeforeUnload);
    this.requestUpdate();
  }

  get #draftId(): string {
    if (this.settingsCode !== undefined) return this.settingsCode;
    return this.routeId ?? (this.singleton ? 'singleton' : 'new');
  }

  /** The draft's scope: the controller, or `settings` for a settings code (one draft per code). */
  get #draftCtl(): string {
    return this.settingsCode === undefined ? this.ctl : 'settings';
  }

  get #schemaPath(): string {
    return this.settingsCode === undefined ? `/${this.ctl}/schema/form` : `/settings/${this.settingsCode}/schema`;
  }

  /** Where the record is saved and read again: the record's route (once read), or the settings code's. */
  get #recordPath(): string | undefined {
    if (this.settingsCode !== undefined) return `/settings/${this.settingsCode}`;
    const id = this.recordId;
    return id === undefined ? undefined : `/${this.ctl}/${id}`;
  }

  /** Where the form's record is first read: a singleton's own route, the route's id, a settings code. */
  get #firstReadPath(): string {
    if (this.settingsCode !== undefined) return `/settings/${this.settingsCode}`;
    return this.singleton ? `/${this.ctl}/singleton` : `/${this.ctl}/${this.routeId}`;
  }

  #scheduleDraft(): void {
    if (this.#draftTimer) return;
    this.#draftTimer = setTimeout(() => {
      this.#draftTimer = undefined;
      this.#writeDraft();
    }, DRAFT_EVERY_MS);
  }

  #writeDraft(): void {
    const admin = this.#admin;
    if (admin === undefined || !this.schema) return;
    if (!this.dirty) {
      removeDraft(admin, this.#draftCtl, this.#draftId);
      return;
    }
    // Passwords never reach the storage.
    const keep = (values: Values) =>
      Object.fromEntries(Object.entries(values).filter(([name]) => this.fields.find((f) => f.name === name)?.type !== 'password'));
    writeDraft(admin, this.#draftCtl, this.#draftId, {
      savedAt: Date.now(),
      values: keep(this.values),
      base: keep(this.base),
      etag: this.etag,
      sessionKey: this.sessionKey,
      pending: [...this.#pending],
    });
  }

  // ---- loading ----

  override connectedCallback(): void {
    super.connectedCallback();
    this.#admin = this.app.me?.id;
    this.app.guard = this;
    document.addEventListener('keydown', this.#onKey);
    document.addEventListener('visibilitychange', this.#onVisibility);
    window.addEventListener('pagehide', this.#onPageHide);
    this.app.addEventListener('query-changed', this.#onLanguage);
    void this.load();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    if (this.app.guard === this) this.app.guard = undefined;
    window.removeEventListener('beforeunload', this.#onBeforeUnload);
    document.removeEventListener('keydown', this.#onKey);
    document.removeEventListener('visibilitychange', this.#onVisibility);
    window.removeEventListener('pagehide', this.#onPageHide);
    this.app.removeEventListener('query-changed', this.#onLanguage);
    // Leaving through the guard saved or discarded; a form taken away with changes (another admin
    // signed in: docs/admin-ui.md, "Another admin on the same browser") writes its draft now, under
    // its own admin. A crash never gets here.
    this.#onPageHide();
  }

  async load(): Promise<void> {
    this.failure = undefined;
    this.requestUpdate();
    try {
      const [schema, record] = await Promise.all([
        this.app.api.call<FormView>('GET', this.#schemaPath),
        this.context === 'create' ? Promise.resolve(undefined) : this.app.api.call<Values>('GET', this.#firstReadPath),
      ]);
      this.schema = schema.data;
      this.fields = schema.data.fields.filter((field) => this.#inContext(field));
      this.tab = this.fields.find((field) => field.tab)?.tab ?? '';
      loadAssets(schema.data.assets);
      // A settings FormView lists no assets (docs/settings.md): its yes/no elements come from `GET /field-types`.
      if (this.settingsCode !== undefined) await loadFieldTypeElements(this.app, this.fields);
      const modules = await Promise.all(this.fields.map((field) => moduleOf(field)));
      for (const [i, field] of this.fields.entries()) this.modules.set(field.name, modules[i]!);
      if (record) this.#served(record.data, record.meta);
      else this.#fresh();
      if (this.singleton && this.base.id !== undefined) this.routeId = String(this.base.id);
      this.#offerDraft();
      const flash = this.app.takeFlash();
      if (flash) this.announce(flash);
    } catch (error) {
      if (error instanceof ApiError && (error.status === 403 || error.status === 404)) this.refused = error.status;
      else this.failure = error instanceof ApiError ? error : new ApiError(0, 'network', String(error));
    }
    this.requestUpdate();
  }

  #inContext(field: FormField): boolean {
    if (field.context === undefined) return true;
    const contexts = Array.isArray(field.context) ? field.context : [field.context];
    return contexts.includes(this.context);
  }

  /** The names whose values the form compares, keeps and sends. */
  get #valueNames(): string[] {
    return this.fields.filter((field) => !VALUELESS.has(field.type)).map((field) => field.name);
  }

  /** A record as served: its values become the base and the form's values. */
  #served(data: Values, meta: Record<string, unknown>): void {
    const base: Values = { ...data };
    for (const field of this.fields) if (field.type === 'password') base[field.name] = '';
    this.base = base;
    this.values = { ...base };
    this.etag = typeof meta.etag === 'string' ? meta.etag : undefined;
    if (meta.secrets && typeof meta.secrets === 'object') this.secrets = { ...(meta.secrets as Record<string, string>) };
    this.labels = { ...this.labels, ...((meta.labels ?? {}) as Labels) };
    this.actions = (meta.actions ?? []) as RecordAction[];
    this.#changed.clear();
    this.#dirtyChanged();
  }

  /** A new record: defaults, else each type's empty value; preset targets follow their source. */
  #fresh(): void {
    const values: Values = {};
    for (const field of this.fields) {
      if (VALUELESS.has(field.type)) continue;
      values[field.name] = field.default !== undefined ? field.default : (this.modules.get(field.name)?.empty?.(field) ?? null);
      if (field.preset) this.#following.add(field.name);
    }
    this.base = { ...values };
    this.values = values;
  }

  #offerDraft(): void {
    const admin = this.#admin;
    if (admin === undefined || this.context === 'preview') return;
    const draft = readDraft(admin, this.#draftCtl, this.#draftId);
    const differs = draft && this.#valueNames.some((name) => name in draft.values && !same(draft.values[name], this.values[name]));
    if (draft && (differs || draft.pending?.length)) this.draftOffer = draft;
    else if (draft) removeDraft(admin, this.#draftCtl, this.#draftId);
  }

  /** Restores a draft as a merge against what the server holds now: nothing of either is lost. */
  restoreDraft(): void {
    const draft = this.draftOffer;
    this.draftOffer = undefined;
    if (!draft) return;
    this.sessionKey = draft.sessionKey;
    this.#nextGeneration();
    const mine: Values = { ...this.values };
    for (const name of this.#valueNames) if (name in draft.values) mine[name] = draft.values[name];
    const base = this.context === 'create' ? this.base : { ...this.base, ...draft.base };
    this.#applyMerge(base, this.base, mine);
    this.#refreshFields();
    this.requestUpdate();
  }

  dropDraft(): void {
    this.draftOffer = undefined;
    removeDraft(this.#admin!, this.#draftCtl, this.#draftId);
    this.requestUpdate();
  }

  #refreshFields(): void {
    for (const element of this.querySelectorAll<CmsField>('cms-field')) element.requestUpdate();
  }

  // ---- saving ----

  /** The body of a save: every value on create, the changed ones on update. */
  #body(): Values {
    const body: Values = {};
    for (const field of this.fields) {
      if (VALUELESS.has(field.type) || field.readOnly) continue;
      if (this.context !== 'create' && !this.#changed.has(field.name)) continue;
      const module = this.modules.get(field.name);
      const value = module?.toBody ? module.toBody(this.values[field.name], field) : this.values[field.name];
      if (value !== undefined) body[field.name] = value;
    }
    return body;
  }

  /** Saves; `close` goes where the form's redirects say. True when saved. */
  async save(close: boolean): Promise<boolean> {
    if (this.saving || !this.schema || this.context === 'preview') return false;
    this.saving = true;
    this.status = '';
    this.requestUpdate();
    const creating = this.context === 'create';
    try {
      const answer = await this.app.api.call<Values>(creating ? 'POST' : 'PUT', creating ? `/${this.ctl}` : this.#recordPath!, {
        body: this.#body(),
        headers: { 'X-Session-Key': this.sessionKey, ...(this.etag && !creating ? { 'If-Match': this.etag } : {}) },
      });
      this.errors = {};
      this.summary = undefined;
      this.conflicts = undefined;
      removeDraft(this.#admin!, this.#draftCtl, this.#draftId);
      this.#served(answer.data, answer.meta);
      this.#following.clear();
      this.notices = (answer.meta.notices ?? []) as Notice[];
      const saved = this.app.i18n!.forms(this.schema.messages.saved);
      this.saving = false;
      this.#nextGeneration();
      this.#dirtyChanged();
      const redirect = this.#redirect(creating, close, Number(answer.data.id));
      if (redirect && redirect !== location.pathname) {
        this.app.flash(saved, this.notices);
        this.app.navigate(redirect);
      } else this.announce(saved);
      return true;
    } catch (error) {
      this.saving = false;
      await this.#refusal(error, close);
      return false;
    }
  }

  #redirect(created: boolean, close: boolean, id: number): string | undefined {
    const redirects = this.schema!.redirects;
    if (this.singleton) return undefined;
    const target = created
      ? close
        ? redirects.create.redirectClose
        : redirects.create.redirect
      : close
        ? redirects.update.redirectClose
        : undefined;
    if (!target) return undefined;
    return targetPath(target, this.app.boot.prefix, { ctl: this.ctl, id }) ?? (close ? this.app.ctlPath(this.ctl) : undefined);
  }

  async #refusal(error: unknown, close: boolean): Promise<void> {
    const app = this.app;
    if (!(error instanceof ApiError)) throw error;
    if (error.status === 412 && error.code === 'version_mismatch' && error.payload.data) {
      const theirs = error.payload.data as Values;
      this.etag = typeof error.payload.meta?.etag === 'string' ? error.payload.meta.etag : this.etag;
      if (error.payload.meta?.secrets && typeof error.payload.meta.secrets === 'object')
        this.secrets = { ...(error.payload.meta.secrets as Record<string, string>) };
      this.labels = { ...this.labels, ...((error.payload.meta?.labels ?? {}) as Labels) };
      const conflicts = this.#applyMerge(this.base, theirs, this.values);
      this.#refreshFields();
      // Nothing to choose: save the merged values with the new version at once.
      if (!conflicts) {
        await this.save(close);
        return;
      }
    } else if ((error.status === 422 || error.status === 403) && Object.keys(error.details).length) {
      this.errors = error.details;
      const names = new Set(this.fields.map((field) => field.name));
      const fields = Object.keys(error.details).map((key) => fieldOf(key, names));
      this.summary = {
        message: error.status === 403 ? app.t('refused_fields') : error.message,
        fields: [...new Set(fields.filter((name): name is string => name !== undefined))],
        unplaced: Object.entries(error.details)
          .filter(([key]) => fieldOf(key, names) === undefined)
          .flatMap(([, messages]) => messages),
      };
      this.#refreshFields();
      // The first tab with a refused field opens, so the link of the summary leads somewhere visible.
      const first = this.fields.find((field) => this.summary!.fields.includes(field.name));
      if (first?.tab) this.tab = first.tab;
      this.requestUpdate();
      await this.updateComplete;
      this.querySelector<HTMLElement>('.cms-error-summary')?.focus();
      return;
    } else if (error.status === 409 && error.code === 'transient_conflict') {
      this.summary = { message: app.t('transient_conflict'), fields: [], unplaced: [] };
    } else {
      this.summary = { message: error.message || app.t('error_network'), fields: [], unplaced: [] };
    }
    this.requestUpdate();
    await this.updateComplete;
    this.querySelector<HTMLElement>('.cms-error-summary, .cms-conflicts')?.focus();
  }

  /**
   * The three-way merge (docs/admin-ui.md, "Concurrency"): theirs becomes the base; fields only
   * they changed are taken over, fields only the admin changed stay; fields both changed wait for
   * the admin's choice. True when there is something to choose.
   */
  #applyMerge(base: Values, theirs: Values, mine: Values): boolean {
    const names = this.#valueNames;
    const result = merge(base, theirs, mine, names);
    const served: Values = { ...theirs };
    for (const field of this.fields) if (field.type === 'password') served[field.name] = '';
    this.base = served;
    this.values = result.values;
    this.taken = result.taken;
    this.conflicts = result.conflicts.length ? { names: result.conflicts, theirs } : undefined;
    this.#changed = new Set(names.filter((name) => !same(this.base[name], this.values[name])));
    this.#dirtyChanged();
    if (this.dirty) this.#scheduleDraft();
    return result.conflicts.length > 0;
  }

  /** The admin's choice for a conflicting field, or for all of them. */
  choose(names: string[], side: 'mine' | 'theirs'): void {
    const conflicts = this.conflicts;
    if (!conflicts) return;
    for (const name of names) {
      if (side === 'theirs') this.#set(name, conflicts.theirs[name]);
      conflicts.names = conflicts.names.filter((n) => n !== name);
    }
    if (!conflicts.names.length) this.conflicts = undefined;
    this.#refreshFields();
    this.requestUpdate();
  }

  /** After a while in the background: the record is read again; a change is taken or shown. */
  async #recheck(): Promise<void> {
    const path = this.context === 'create' ? undefined : this.#recordPath;
    if (path === undefined || !this.etag) return;
    try {
      const answer = await this.app.api.call<Values>('GET', path);
      if (answer.meta.etag === this.etag) return;
      if (!this.dirty) {
        this.#served(answer.data, answer.meta);
        this.#refreshFields();
        this.announce(this.app.t('record_refreshed'));
      } else {
        this.changedElsewhere = true;
        this.requestUpdate();
      }
    } catch {
      // The next save finds out.
    }
  }

  /** "Review" on the changed-elsewhere banner: the same merge as a 412. */
  async review(): Promise<void> {
    this.changedElsewhere = false;
    const path = this.context === 'create' ? undefined : this.#recordPath;
    if (path === undefined) return;
    const answer = await this.app.api.call<Values>('GET', path);
    this.etag = typeof answer.meta.etag === 'string' ? answer.meta.etag : this.etag;
    this.#applyMerge(this.base, answer.data, this.values);
    this.#refreshFields();
    this.requestUpdate();
  }

  // ---- delete and record actions ----

  #ask(pending: NonNullable<CmsForm['pending']>): void {
    this.pending = pending;
    this.requestUpdate();
    void this.updateComplete.then(() => {
      const dialog = this.querySelector<HTMLDialogElement>('#cms-form-confirm');
      if (dialog && !dialog.open) dialog.showModal();
    });
  }

  async #confirmed(): Promise<void> {
    const pending = this.pending;
    this.querySelector<HTMLDialogElement>('#cms-form-confirm')?.close();
    if (!pending) return;
    if (pending.kind === 'delete') await this.#delete();
    else await this.#runAction(pending.action);
  }

  async #delete(): Promise<void> {
    const id = this.recordId;
    if (id === undefined || !this.schema) return;
    try {
      await this.app.api.call('DELETE', `/${this.ctl}/${id}`);
      this.#changed.clear();
      this.#pending.clear();
      this.#dirtyChanged();
      removeDraft(this.#admin!, this.#draftCtl, this.#draftId);
      this.app.flash(this.app.i18n!.forms(this.schema.messages.deleted, {}, 1));
      this.app.navigate(targetPath(this.schema.redirects.default, this.app.boot.prefix, { ctl: this.ctl }) ?? this.app.ctlPath(this.ctl));
    } catch (error) {
      await this.#refusal(error, false);
    }
  }

  async #runAction(action: RecordAction): Promise<void> {
    const id = this.recordId;
    if (id === undefined) return;
    try {
      const answer = await this.app.api.call<{ message?: string; data?: { redirect?: unknown } }>(
        'POST',
        `/${this.ctl}/${id}/actions/${action.name}`,
      );
      const done = answer.data.message || this.app.t('action_done');
      // An action that made another record (duplicate) names it: open it (docs/admin-ui.md, "Forms").
      const redirect = answer.data.data?.redirect;
      const target = typeof redirect === 'string' ? targetPath(redirect, this.app.boot.prefix, { ctl: this.ctl, id }) : undefined;
      if (target && target !== location.pathname) {
        this.app.flash(done);
        this.app.navigate(target);
        return;
      }
      this.announce(done);
      // The action may have changed the record: read it again, keeping what the admin typed.
      const record = await this.app.api.call<Values>('GET', `/${this.ctl}/${id}`);
      this.actions = (record.meta.actions ?? []) as RecordAction[];
      if (this.dirty) {
        this.etag = typeof record.meta.etag === 'string' ? record.meta.etag : this.etag;
        this.#applyMerge(this.base, record.data, this.values);
      } else this.#served(record.data, record.meta);
      this.#refreshFields();
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) this.announce(this.app.t('record_action_gone'));
      else if (error instanceof ApiError && error.status === 409) this.announce(this.app.t('record_action_not_applicable'));
      else await this.#refusal(error, false);
    }
    this.requestUpdate();
  }

  // ---- rendering ----

  #title(): string {
    const schema = this.schema;
    const i18n = this.app.i18n!;
    if (!schema) return this.app.t('loading');
    if (this.settingsCode !== undefined) return schema.name ?? this.settingsCode;
    if (this.singleton) return this.app.navLabel(this.ctl);
    const messages = schema.messages;
    return i18n.forms(this.context === 'create' ? messages.create : this.context === 'preview' ? messages.preview : messages.edit);
  }

  override render(): TemplateResult {
    const app = this.app;
    if (this.refused === 404) return app.notFound();
    if (this.refused === 403) return app.forbidden();
    const title = this.#title();
    document.title = this.dirty ? `• ${title}` : title;
    const schema = this.schema;
    // One template whatever the state, so the heading that got the focus on arrival keeps it.
    return html`<h1 tabindex="-1">${title}</h1>
      ${
        this.settingsCode !== undefined
          ? html`<p><a href="${app.boot.prefix}/settings">${app.t('settings_back')}</a></p>`
          : this.singleton
            ? nothing
            : html`<p><a href=${app.ctlPath(this.ctl)}>${app.t('back_to_list')}</a></p>`
      }
      <p class="cms-status" role="status">${this.status}</p>
      ${this.failure ? this.#failureView() : nothing}
      ${schema ? this.#formView(schema) : this.failure ? nothing : html`<p>${app.t('loading')}</p>`}`;
  }

  #failureView(): TemplateResult {
    return html`<div class="cms-alert" role="alert">
      <p>${this.failure?.message || this.app.t('error_network')}</p>
      <button type="button" class="cms-button" @click=${() => void this.load()}>${this.app.t('retry')}</button>
    </div>`;
  }

  #formView(schema: FormView): TemplateResult {
    const app = this.app;
    const preview = this.context === 'preview';
    const tabs = [...new Set(this.fields.map((field) => field.tab).filter((tab): tab is string => Boolean(tab)))];
    const outside = this.fields.filter((field) => !field.tab);
    return html`${this.#banners()} ${this.#summaryView()} ${this.#conflictView()}
      ${preview && schema.preview?.headerPartial ? html`<cms-partial .app=${app} .ctl=${this.ctl} .name=${schema.preview.headerPartial} .recordId=${this.recordId}></cms-partial>` : nothing}
      ${this.#actionsView()}
      <form class="cms-form" novalidate @submit=${(event: Event) => {
        event.preventDefault();
        void this.save(false);
      }}>
        <div class="cms-form-grid">${this.#fieldsView(outside)}</div>
        ${tabs.length ? this.#tabsView(tabs) : nothing}
        ${this.#notices()}
        ${
          preview
            ? html`<p class="cms-form-buttons">
              <a class="cms-button" href="${app.ctlPath(this.ctl)}/update/${this.recordId}">${app.t('edit')}</a>
            </p>`
            : html`<p class="cms-form-buttons">
              <button type="submit" class="cms-button cms-primary" ?disabled=${this.saving}>${app.t('save')}</button>
              ${this.singleton ? nothing : html`<button type="button" class="cms-button" ?disabled=${this.saving} @click=${() => void this.save(true)}>${app.t('save_and_close')}</button>`}
              <span class="cms-muted cms-dirty-note">${this.dirty ? app.t('unsaved_changes') : ''}</span>
              ${
                this.context === 'update' && !this.singleton && this.settingsCode === undefined
                  ? html`<button type="button" class="cms-button cms-danger cms-form-delete" @click=${() => this.#ask({ kind: 'delete' })}>
                    ${app.t('delete')}
                  </button>`
                  : nothing
              }
            </p>`
        }
      </form>
      ${this.#confirmDialog(schema)}`;
  }

  #fieldsView(fields: FormField[]): TemplateResult[] {
    let side: 'left' | 'right' = 'right';
    return fields.map((field) => {
      const module = this.modules.get(field.name)!;
      // `auto` takes the other column than the field before it (as the reference backend does).
      const span = field.span === 'auto' || !field.span ? (side = side === 'left' ? 'right' : 'left') : field.span;
      if (span === 'left' || span === 'right') side = span;
      return html`<cms-field
        class="cms-field cms-span-${span === 'row' ? 'full' : span} ${field.size ? `cms-size-${field.size}` : ''}"
        data-name=${field.name}
        .owner=${this}
        .field=${field}
        .module=${module}
      ></cms-field>`;
    });
  }

  #tabsView(tabs: string[]): TemplateResult {
    const current = tabs.includes(this.tab) ? this.tab : tabs[0]!;
    const select = (tab: string, focus: boolean) => {
      this.tab = tab;
      this.requestUpdate();
      if (focus) void this.updateComplete.then(() => this.querySelector<HTMLElement>(`[role="tab"][aria-selected="true"]`)?.focus());
    };
    const onKey = (event: KeyboardEvent) => {
      const at = tabs.indexOf(current);
      const rtl = this.app.i18n?.dir === 'rtl';
      const next: Record<string, number> = {
        ArrowRight: rtl ? at - 1 : at + 1,
        ArrowLeft: rtl ? at + 1 : at - 1,
        Home: 0,
        End: tabs.length - 1,
      };
      if (!(event.key in next)) return;
      event.preventDefault();
      select(tabs[(next[event.key]! + tabs.length) % tabs.length]!, true);
    };
    const id = (tab: string) => `tab-${tabs.indexOf(tab)}`;
    return html`<div class="cms-tabs" role="tablist" @keydown=${onKey}>
        ${tabs.map(
          (tab) => html`<button
            type="button"
            role="tab"
            id=${id(tab)}
            class="cms-tab"
            aria-selected=${String(tab === current)}
            aria-controls="${id(tab)}-panel"
            tabindex=${tab === current ? '0' : '-1'}
            @click=${() => select(tab, false)}
          >
            ${tab}${this.fields.some((field) => field.tab === tab && this.errors[field.name]) ? html` <span class="cms-tab-error">!</span>` : nothing}
          </button>`,
        )}
      </div>
      ${tabs.map(
        (
          tab,
        ) => html`<div class="cms-tab-panel cms-form-grid" role="tabpanel" id="${id(tab)}-panel" aria-labelledby=${id(tab)} ?hidden=${tab !== current}>
          ${this.#fieldsView(this.fields.filter((field) => field.tab === tab))}
        </div>`,
      )}`;
  }

  #labelOf(name: string): string {
    return this.fields.find((field) => field.name === name)?.label ?? name;
  }

  #summaryView(): TemplateResult | typeof nothing {
    const summary = this.summary;
    if (!summary) return nothing;
    const app = this.app;
    return html`<div class="cms-alert cms-error-summary" role="alert" tabindex="-1" aria-labelledby="cms-error-summary-title">
      <h2 id="cms-error-summary-title">${summary.message || app.t('error_title')}</h2>
      ${
        summary.fields.length || summary.unplaced.length
          ? html`<ul>
            ${summary.fields.map(
              (name) => html`<li>
                <a href="#field-${name}" @click=${(event: Event) => this.#focusField(event, name)}>${this.#labelOf(name)}: ${this.errors[name]?.join(' ')}</a>
              </li>`,
            )}
            ${summary.unplaced.map((message) => html`<li>${message}</li>`)}
          </ul>`
          : nothing
      }
    </div>`;
  }

  #focusField(event: Event, name: string): void {
    event.preventDefault();
    const field = this.fields.find((f) => f.name === name);
    if (field?.tab && field.tab !== this.tab) {
      this.tab = field.tab;
      this.requestUpdate();
    }
    void this.updateComplete.then(() => {
      const element = this.#field(name);
      const target =
        element?.querySelector<HTMLElement>(`#field-${CSS.escape(name)}`) ??
        element?.querySelector<HTMLElement>('input, textarea, select, button, [tabindex]');
      (target?.matches('input, textarea, select, button, [tabindex], a[href]')
        ? target
        : target?.querySelector<HTMLElement>('input, textarea, select, button, [tabindex]')
      )?.focus();
    });
  }

  #banners(): TemplateResult {
    const app = this.app;
    const draft = this.draftOffer;
    const time = (at: number) => new Intl.DateTimeFormat(app.i18n?.locale, { dateStyle: 'medium', timeStyle: 'short' }).format(at);
    return html`${
      draft
        ? html`<div class="cms-banner cms-draft-offer" role="region" aria-label=${app.t('draft_title')}>
          <p>${app.t('draft_offer', { time: time(draft.savedAt) })}</p>
          <button type="button" class="cms-button cms-primary" @click=${() => this.restoreDraft()}>${app.t('draft_restore')}</button>
          <button type="button" class="cms-button" @click=${() => this.dropDraft()}>${app.t('draft_discard')}</button>
        </div>`
        : nothing
    }
    ${
      this.changedElsewhere
        ? html`<div class="cms-banner" role="alert">
          <p>${app.t('changed_elsewhere')}</p>
          <button type="button" class="cms-button" @click=${() => void this.review()}>${app.t('review')}</button>
        </div>`
        : nothing
    }
    ${this.taken.length ? html`<p class="cms-muted cms-taken">${app.t('taken_over', { fields: this.taken.map((name) => this.#labelOf(name)).join(', ') })}</p>` : nothing}`;
  }

  #show(name: string, value: unknown): string {
    if (value === null || value === undefined || value === '') return this.app.t('empty_value');
    const labels = this.labels[name];
    const label = (v: unknown) => labels?.find((entry) => entry.value === v)?.label ?? String(v);
    if (Array.isArray(value)) return value.map(label).join(', ');
    if (typeof value === 'object')
      return Object.entries(value as Record<string, unknown>)
        .map(([key, v]) => `${key}: ${String(v)}`)
        .join('; ');
    return label(value);
  }

  #conflictView(): TemplateResult | typeof nothing {
    const conflicts = this.conflicts;
    if (!conflicts) return nothing;
    const app = this.app;
    return html`<section class="cms-alert cms-conflicts" tabindex="-1" aria-labelledby="cms-conflicts-title">
      <h2 id="cms-conflicts-title">${app.t('conflict_title')}</h2>
      <p>${app.t('conflict_text')}</p>
      <table class="cms-table">
        <thead>
          <tr>
            <th scope="col">${app.t('conflict_field')}</th>
            <th scope="col">${app.t('conflict_mine')}</th>
            <th scope="col">${app.t('conflict_theirs')}</th>
            <th scope="col"><span class="cms-visually-hidden">${app.t('conflict_choice')}</span></th>
          </tr>
        </thead>
        <tbody>
          ${conflicts.names.map(
            (name) => html`<tr>
              <th scope="row">${this.#labelOf(name)}</th>
              <td class="cms-conflict-value">${this.#show(name, this.values[name])}</td>
              <td class="cms-conflict-value">${this.#show(name, conflicts.theirs[name])}</td>
              <td>
                <button type="button" class="cms-button" aria-label=${app.t('keep_mine_of', { field: this.#labelOf(name) })} @click=${() => this.choose([name], 'mine')}>${app.t('keep_mine')}</button>
                <button type="button" class="cms-button" aria-label=${app.t('use_theirs_of', { field: this.#labelOf(name) })} @click=${() => this.choose([name], 'theirs')}>${app.t('use_theirs')}</button>
              </td>
            </tr>`,
          )}
        </tbody>
      </table>
      <p class="cms-form-buttons">
        <button type="button" class="cms-button" @click=${() => this.choose([...conflicts.names], 'mine')}>${app.t('keep_all_mine')}</button>
        <button type="button" class="cms-button" @click=${() => this.choose([...conflicts.names], 'theirs')}>${app.t('use_all_theirs')}</button>
      </p>
    </section>`;
  }

  #actionsView(): TemplateResult | typeof nothing {
    if (!this.actions.length || this.context === 'create') return nothing;
    return html`<div class="cms-toolbar cms-record-actions" role="group" aria-label=${this.app.t('record_actions')}>
      ${this.actions.map(
        (action) => html`<button
          type="button"
          class="cms-button ${action.danger ? 'cms-danger' : ''}"
          @click=${() => (action.confirm ? this.#ask({ kind: 'action', action }) : void this.#runAction(action))}
        >
          ${action.label}
        </button>`,
      )}
    </div>`;
  }

  #notices(): TemplateResult | typeof nothing {
    if (!this.notices.length) return nothing;
    return html`<div class="cms-notices" role="status">
      <h2>${this.app.t('notices_title')}</h2>
      <ul>
        ${this.notices.map((notice) => html`<li>${notice.message}</li>`)}
      </ul>
    </div>`;
  }

  #confirmDialog(schema: FormView): TemplateResult {
    const pending = this.pending;
    const i18n = this.app.i18n!;
    const text = pending?.kind === 'delete' ? i18n.forms(schema.messages.deleteConfirm, {}, 1) : (pending?.action.confirm ?? '');
    return html`<dialog id="cms-form-confirm" class="cms-dialog" aria-labelledby="cms-form-confirm-text" @close=${() => {
      this.pending = undefined;
    }}>
      <p id="cms-form-confirm-text">${text}</p>
      <p class="cms-dialog-buttons">
        <button type="button" class="cms-button" @click=${() => this.querySelector<HTMLDialogElement>('#cms-form-confirm')?.close()}>
          ${this.app.t('cancel')}
        </button>
        <button type="button" class="cms-button ${pending?.kind === 'delete' || (pending?.kind === 'action' && pending.action.danger) ? 'cms-danger' : 'cms-primary'}" @click=${() => void this.#confirmed()}>
          ${pending?.kind === 'delete' ? this.app.t('delete') : (pending?.action.label ?? this.app.t('confirm'))}
        </button>
      </p>
    </dialog>`;
  }
}

/** The field a refusal's key names: `title`, `announcement.de`, `gallery[2]`, `payload.margin` (none). */
function fieldOf(key: string, names: Set<string>): string | undefined {
  if (names.has(key)) return key;
  const head = key.split(/[.[]/, 1)[0]!;
  return names.has(head) ? head : undefined;
}

/** A form's `assets`: each script and stylesheet once per page (docs/admin-ui.md, "Plugin elements: protocol v1"). */
function loadAssets(assets: FormView['assets']): void {
  for (const url of assets.scripts) addScript(url);
  for (const url of assets.styles) addStylesheet(url);
}

if (!customElements.get('cms-form')) customElements.define('cms-form', CmsForm);
