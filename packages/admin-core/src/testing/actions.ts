import { defineEntity, p } from '@mikro-orm/core';
import { defineActions, defineController, definePlugin, Forbidden, Migration, Validation, type ScopeContext } from '../index.ts';

/*
 * `test/actions`: every kind of action, declared as a plugin author would. Items belong to the
 * admin who owns them. The list scope and the form scope differ on purpose, so that a test can
 * tell which one a route used: a non-superuser's list scope hides items with `listed = false`,
 * the form scope hides items with `sealed = true`.
 */

export const Item = defineEntity({
  name: 'TestActionItem',
  tableName: 'test_action_items',
  properties: {
    id: p.integer().primary(),
    title: p.string().length(200),
    owner_id: p.integer(),
    status: p.string().length(20).default('open'),
    counter: p.integer().default(0),
    note: p.text().nullable(),
    listed: p.boolean().default(true),
    sealed: p.boolean().default(false),
  },
});

export const Single = defineEntity({
  name: 'TestActionSingle',
  tableName: 'test_action_singles',
  properties: { id: p.integer().primary(), name: p.string().length(100).default('') },
});

class ActionsInit extends Migration {
  override up(): void {
    this.addSql(`create table test_action_items (
      id serial primary key, title varchar(200) not null, owner_id int not null, status varchar(20) not null default 'open',
      counter int not null default 0, note text null, listed boolean not null default true, sealed boolean not null default false)`);
    this.addSql(`create table test_action_singles (id serial primary key, name varchar(100) not null default '')`);
  }
}

export const ITEMS_PERMISSION = 'test.actions.items';
export const REOPEN_PERMISSION = 'test.actions.reopen';
export const ITEMS = 'test/actions/items';
export const SINGLE = 'test/actions/single';
export const ACTION_TABLES = ['test_action_items', 'test_action_singles'] as const;

/** What the actions did, for tests that must prove an action did not run, or when it ran. */
export const journal: Array<{ action: string; ids: number[]; start: number; end: number }> = [];
/** Milliseconds the `bump` bulk action waits while it holds its row locks. */
export const knobs = { bumpDelayMs: 0 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const own =
  (extra: Record<string, unknown>) =>
  ({ principal }: ScopeContext) =>
    principal.admin.isSuperuser ? undefined : { owner_id: principal.admin.id, ...extra };
type IItem = { id: number; title: string; owner_id: number; status: string; counter: number; note?: string | null };

/** `size` bytes of JSON once encoded: a string of size - 2 characters plus its quotes. */
export const jsonOfSize = (size: number) => 'x'.repeat(size - 2);

const actions = defineActions<IItem>({
  record: {
    close: {
      label: 'test.actions::close',
      appliesTo: (item) => item.status === 'open',
      run(item, ctx) {
        item.status = 'done';
        journal.push({ action: 'close', ids: [item.id], start: Date.now(), end: Date.now() });
        return { message: 'test.actions::closed', data: { id: item.id, by: ctx.principal.admin.id } };
      },
    },
    reopen: {
      label: 'test.actions::reopen',
      confirm: 'test.actions::reopen_confirm',
      danger: true,
      permissions: [REOPEN_PERMISSION],
      appliesTo: (item) => item.status === 'done',
      run(item) {
        item.status = 'open';
      },
    },
    explode: {
      label: 'Explode',
      danger: false,
      async run(item, { em }) {
        item.note = 'written before the failure';
        await em.flush();
        throw new Error('plugin code failed');
      },
    },
    refuse: {
      label: 'Refuse',
      async run(item, { em }) {
        item.note = 'written before the refusal';
        await em.flush();
        throw Forbidden({ note: ['test.actions::refused'] });
      },
    },
    data: {
      label: 'Data',
      // `note` chooses the data: a size in bytes, `cycle` or `bigint`.
      async run(item, { em }) {
        const kind = item.note ?? '';
        item.counter += 1;
        await em.flush();
        if (kind === 'cycle') {
          const cyclic: Record<string, unknown> = {};
          cyclic.self = cyclic;
          return { data: cyclic };
        }
        if (kind === 'bigint') return { data: { n: 10n } };
        return { data: jsonOfSize(Number(kind)) };
      },
    },
  },
  bulk: {
    bump: {
      async run(items, ctx) {
        const start = Date.now();
        // Read, wait while holding the locks, write: without the row locks, two overlapping
        // runs would both read the same counter and one increment would be lost.
        const seen = items.map((item) => item.counter);
        if (knobs.bumpDelayMs) await sleep(knobs.bumpDelayMs);
        for (const [index, item] of items.entries()) item.counter = seen[index]! + 1;
        await ctx.em.flush();
        journal.push({ action: 'bump', ids: items.map((item) => item.id), start, end: Date.now() });
        return { message: ctx.t('test.actions::bumped', { count: items.length }) };
      },
    },
    restricted: {
      permissions: [REOPEN_PERMISSION],
      run(items) {
        journal.push({ action: 'restricted', ids: items.map((item) => item.id), start: Date.now(), end: Date.now() });
        return { affected: 0 };
      },
    },
    fail: {
      async run(items, { em }) {
        for (const item of items) item.counter += 100;
        await em.flush();
        throw new Error('bulk failure');
      },
    },
  },
  toolbar: {
    ping: {
      label: 'test.actions::ping',
      async run(ctx) {
        journal.push({ action: 'ping', ids: [], start: Date.now(), end: Date.now() });
        const count = await ctx.em.count(Item, {});
        return { message: ctx.t('test.actions::pong', { count }), data: { locale: ctx.locale, settings: await ctx.settings('journal') } };
      },
    },
    audit: { label: 'test.actions::audit', permissions: [REOPEN_PERMISSION], run: () => ({ message: 'audited' }) },
    // Waits on nothing here, but says whether it holds a transaction (an HTTP-bound action must not).
    outside: {
      label: 'test.actions::outside',
      transaction: false,
      run: (ctx) => ({ message: 'outside', data: { inTransaction: ctx.em.isInTransaction() } }),
    },
  },
  widget: {
    // Echoes what reached it, and answers `fill` with keys outside `fill` and non-scalars.
    assist: {
      run({ record, values, payload }) {
        const size = payload === undefined ? null : JSON.stringify(payload).length;
        if (payload === 'invalid') throw Validation({ payload: ['test.actions::bad_payload'] });
        return {
          fill: { title: `${String(values.title ?? record?.title ?? '')}!`, note: ['not', 'scalar'], counter: 5, status: 'x' },
          message: 'assisted',
          data: { values, record: record ? { id: record.id, title: record.title } : null, size },
        };
      },
    },
    // Writes, then answers `data` of `payload.size` bytes.
    blob: {
      async run({ record, payload }, { em }) {
        if (record) {
          record.counter += 1;
          await em.flush();
        }
        return { fill: {}, data: jsonOfSize((payload as { size: number }).size) };
      },
    },
    guarded: { permissions: [REOPEN_PERMISSION], run: () => ({ fill: { title: 'guarded' } }) },
  },
});

export const itemsController = defineController({
  name: 'items',
  entity: Item,
  permissions: [ITEMS_PERMISSION],
  scopes: { list: own({ listed: true }), form: own({ sealed: false }) },
  list: {
    columns: { title: { label: 'Title', searchable: true, sortable: true }, counter: { label: 'Counter' } },
    bulkActions: [
      { name: 'bump', label: 'test.actions::bump', confirm: 'test.actions::bump_confirm' },
      { name: 'restricted', label: 'Restricted' },
      { name: 'fail', label: 'Fail' },
    ],
    toolbar: { buttons: ['audit', 'create', 'ping', 'delete', 'outside'] },
  },
  form: {
    fields: {
      title: { type: 'text', label: 'Title', required: true },
      status: { type: 'text', label: 'Status' },
      note: { type: 'textarea', label: 'Note' },
      counter: { type: 'number', label: 'Counter' },
      helper: { type: 'widget', action: 'assist', widget: 'test-assist', fill: ['title', 'note', 'status'] },
      blob_helper: { type: 'widget', action: 'blob', widget: 'test-blob', fill: [] },
      guarded_helper: { type: 'widget', action: 'guarded', widget: 'test-guarded', fill: ['title'] },
    },
  },
  actions,
});

/** A singleton: no list, so no bulk or toolbar route. */
export const singleController = defineController({
  name: 'single',
  entity: Single,
  permissions: [ITEMS_PERMISSION],
  singleton: true,
  form: { fields: { name: { type: 'text', label: 'Name' } } },
});

const strings = (de: boolean) => ({
  close: de ? 'Schließen' : 'Close',
  closed: de ? 'Geschlossen.' : 'Closed.',
  reopen: de ? 'Wieder öffnen' : 'Reopen',
  reopen_confirm: de ? 'Wirklich?' : 'Really?',
  refused: de ? 'Abgelehnt.' : 'Refused.',
  bump: de ? 'Hochzählen' : 'Bump',
  bump_confirm: de ? 'Hochzählen?' : 'Bump them?',
  bumped: de ? { one: '{count} erhöht', other: '{count} erhöht' } : { one: '{count} bumped', other: '{count} bumped' },
  ping: 'Ping',
  pong: de ? 'Pong: {count}' : 'Pong: {count}',
  audit: de ? 'Prüfen' : 'Audit',
  outside: de ? 'Draußen' : 'Outside',
  bad_payload: de ? 'Ungültig.' : 'Invalid.',
});

export const actionsPlugin = definePlugin({
  vendor: 'test',
  name: 'actions',
  permissions: [
    { code: ITEMS_PERMISSION, label: 'Items' },
    { code: REOPEN_PERMISSION, label: 'Reopen' },
  ],
  entities: [Item, Single],
  migrations: [{ name: 'test.actions/0001-init', class: ActionsInit }],
  controllers: [itemsController, singleController],
  strings: { en: strings(false), de: strings(true) },
});
