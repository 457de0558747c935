import { defineEntity, p } from '@mikro-orm/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineController, definePlugin, Migration } from '@cms/admin-core';
import { startTestAdmin, type StartedTestAdmin, type TestClient } from '@cms/admin-core/testing';
import { journalPlugin } from '@cms/journal';
import { Category, journalEntities } from '@cms/journal/entities';
import { plugins } from '../../src/plugins/index.ts';

/*
 * A plugin that relates to the journal's categories (docs/plugin-guide.md, "Relating to another
 * plugin's entity"): it imports `Category` by the package name, declares a belongsToMany to it,
 * creates the pivot table with a foreign key to `journal_categories` in its own migration, and is
 * listed after the journal so that this migration runs after the journal's.
 */

const ReadingList = defineEntity({
  name: 'AcmeReadingList',
  tableName: 'acme_reading_lists',
  properties: {
    id: p.integer().primary(),
    title: p.string().length(200),
    categories: () =>
      p.manyToMany(Category).pivotTable('acme_reading_lists_categories').joinColumn('list_id').inverseJoinColumn('category_id'),
  },
});

class ReadingInit extends Migration {
  override up(): void {
    this.addSql('create table acme_reading_lists (id serial primary key, title varchar(200) not null)');
    this.addSql(`create table acme_reading_lists_categories (
      list_id int not null references acme_reading_lists (id) on delete cascade,
      category_id int not null references journal_categories (id) on delete cascade,
      primary key (list_id, category_id)
    )`);
    this.addSql('create index acme_reading_lists_categories_category on acme_reading_lists_categories (category_id)');
  }
}

const readingPlugin = definePlugin({
  vendor: 'acme',
  name: 'reading',
  permissions: [{ code: 'acme.reading.manage', label: 'Manage reading lists' }],
  // Its own entity only: the journal registers `Category`.
  entities: [ReadingList],
  migrations: [{ name: 'acme.reading/0001-init', class: ReadingInit }],
  controllers: [
    defineController({
      name: 'lists',
      entity: ReadingList,
      permissions: ['acme.reading.manage'],
      list: { columns: ['title'] },
      form: { fields: ['title', { categories: { type: 'relation', nameFrom: 'name' } }] },
    }),
  ],
});

const LISTS = 'acme/reading/lists';

describe('@cms/journal/entities: another plugin relates to the journal', () => {
  let admin: StartedTestAdmin;
  let editor: TestClient;
  beforeAll(async () => {
    admin = await startTestAdmin({ plugins: [...plugins, readingPlugin] });
    editor = await admin.signIn({ permissions: ['acme.reading.manage'] });
  });
  afterAll(() => admin?.close());

  it('publishes the very entities the journal registers', () => {
    expect(journalEntities).toBe(journalPlugin.entities);
    expect(journalEntities).toContain(Category);
  });

  it('runs its migration after the journal: the pivot references journal_categories', async () => {
    const names = (await admin.sql<{ name: string }>('select name from cms_migrations order by id')).map((row) => row.name);
    expect(names.indexOf('acme.reading/0001-init')).toBeGreaterThan(names.indexOf('cms.journal/0001-init'));
    expect(
      await admin.sql(
        `select a.attname as column, c.confrelid::regclass::text as references, c.confdeltype as on_delete
         from pg_constraint c join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
         where c.contype = 'f' and c.conrelid = 'acme_reading_lists_categories'::regclass order by a.attname`,
      ),
    ).toEqual([
      { column: 'category_id', references: 'journal_categories', on_delete: 'c' },
      { column: 'list_id', references: 'acme_reading_lists', on_delete: 'c' },
    ]);
  });

  it('saves and reads a belongsToMany to the journal categories; a deleted category leaves the list', async () => {
    const [a, b] = await admin.sql<{ id: number }>(
      `insert into journal_categories (name, slug) values ('Essays', 'essays-reading'), ('Poems', 'poems-reading') returning id`,
    );
    const created = await editor.post(LISTS, { title: 'Weekend', categories: [a!.id, b!.id] });
    expect(created.status, created.text).toBe(201);
    const id = created.body.data.id;
    const shown = await editor.get(`${LISTS}/${id}`);
    expect(shown.status, shown.text).toBe(200);
    expect([...shown.body.data.categories].sort()).toEqual([a!.id, b!.id].sort());

    await admin.sql('delete from journal_categories where id = ?', [a!.id]);
    expect(await admin.sql('select category_id from acme_reading_lists_categories where list_id = ?', [id])).toEqual([
      { category_id: b!.id },
    ]);
  });

  it('listed before the journal, its migration finds no journal_categories yet and the start stops', async () => {
    const failed = await startTestAdmin({ plugins: [readingPlugin, ...plugins] }).then(
      async (started) => {
        await started.close();
        return undefined;
      },
      (error: unknown) => error,
    );
    expect(String(failed)).toMatch(/relation "journal_categories" does not exist/);
  });
});
