import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAdmin } from '../../../../test/support/app.ts';
import { signIn, type Client } from '../../../../test/support/client.ts';
import { RELATION_MESSAGE_KEYS } from '../../src/controllers/types.ts';
import { CREWS, ok, PROJECTS, startRelationsAdmin } from './support.ts';

/*
 * `GET /{ctl}/schema/relation/{name}`: RelationSchema (docs/relations.md, "The relation schema"),
 * and the `deferrable` the form schema's relation-manager fields carry (computed: a
 * belongsToMany always, a hasMany when its key is nullable).
 */
describe('the relation schema', () => {
  let t: TestAdmin;
  let su: Client;

  beforeAll(async () => {
    t = await startRelationsAdmin();
    su = await signIn(t, { isSuperuser: true });
  });
  afterAll(() => t.close());

  const schema = async (path: string, client = su) => {
    const res = await client.get(path);
    ok(res);
    return res.body.data as Record<string, any>;
  };

  it('members: a deferrable hasMany with every button, a manage form and message overrides', async () => {
    const data = await schema(`${CREWS}/schema/relation/members`);
    expect(Object.keys(data).sort()).toEqual(['deferrable', 'kind', 'label', 'manage', 'manageForm', 'messages', 'name', 'view']);
    expect(data).toMatchObject({ name: 'members', label: 'Members', kind: 'hasMany', deferrable: true });
    const columns = [
      { key: 'name', label: 'Name', searchable: true, sortable: true },
      { key: 'is_secret', label: 'Secret', searchable: false, sortable: false },
    ];
    expect(data.view).toEqual({ list: { columns }, showSearch: true, toolbarButtons: ['create', 'update', 'delete', 'link', 'unlink'] });
    // The picker's columns default to the view's.
    expect(data.manage.list).toEqual({ columns });
    expect(data.manageForm).toEqual([
      expect.objectContaining({ name: 'name', type: 'text', label: 'Name', required: true }),
      expect.objectContaining({ name: 'note', type: 'textarea', label: 'Note' }),
      expect.objectContaining({ name: 'photo', type: 'fileupload', mode: 'image', maxFiles: 1 }),
    ]);
  });

  it('messages: every RelationMessages key, as plural forms, localized, with per-relation overrides', async () => {
    expect(RELATION_MESSAGE_KEYS).toHaveLength(25);
    for (const locale of ['en', 'de']) {
      for (const name of ['members', 'badges']) {
        const { messages } = await schema(`${CREWS}/schema/relation/${name}`, su.locale(locale));
        expect(Object.keys(messages).sort()).toEqual([...RELATION_MESSAGE_KEYS].sort());
        for (const [key, forms] of Object.entries(messages as Record<string, Record<string, string>>)) {
          expect(typeof forms.other, key).toBe('string');
          for (const text of Object.values(forms)) expect(text, key).not.toMatch(/::|^relation\./);
        }
      }
    }
    const en = (await schema(`${CREWS}/schema/relation/members`)).messages;
    const de = (await schema(`${CREWS}/schema/relation/members`, su.locale('de'))).messages;
    expect(en.linked).toEqual({ other: 'Joined the crew.' });
    expect(en.empty).toEqual({ other: 'No members yet.' });
    expect(de.empty).toEqual({ other: 'Noch keine Mitglieder.' });
    const badges = (await schema(`${CREWS}/schema/relation/badges`)).messages;
    expect(badges.linked).toEqual({ one: 'Linked.', other: '{count} records linked.' });
    expect((await schema(`${CREWS}/schema/relation/badges`, su.locale('de'))).messages.linked.one).toBe('Verknüpft.');
  });

  it('badges: a belongsToMany with a pivot form and a view form, no manage form', async () => {
    const data = await schema(`${CREWS}/schema/relation/badges`);
    expect(Object.keys(data).sort()).toEqual([
      'deferrable',
      'kind',
      'label',
      'manage',
      'messages',
      'name',
      'pivotForm',
      'view',
      'viewForm',
    ]);
    expect(data).toMatchObject({ name: 'badges', label: 'Badges', kind: 'belongsToMany', deferrable: true });
    expect(data.view.toolbarButtons).toEqual(['link', 'unlink']);
    // `default: 1` is the pivot column's (`p.integer().default(1)`; docs/controllers.md, "Defaults from the entity").
    expect(data.pivotForm).toEqual([{ name: 'weight', type: 'number', label: 'Weight', min: 1, max: 10, default: 1 }]);
    expect(data.viewForm).toEqual([expect.objectContaining({ name: 'name', type: 'text', label: 'Name' })]);
  });

  it('steps: a hasMany over a key that is not nullable is not deferrable', async () => {
    const data = await schema(`${PROJECTS}/schema/relation/steps`);
    expect(data).toMatchObject({ name: 'steps', kind: 'hasMany', deferrable: false });
    expect(data.view.toolbarButtons).toEqual(['create', 'update', 'delete']);
    expect(data.view.showSearch).toBe(false);
    expect(data).not.toHaveProperty('pivotForm');
  });

  it("the form schema's relation-manager fields carry the computed deferrable", async () => {
    const crews = (await schema(`${CREWS}/schema/form`)).fields as Array<Record<string, unknown>>;
    expect(crews.filter((field) => field.type === 'relation-manager')).toEqual([
      { name: 'members', type: 'relation-manager', label: 'Members', relation: 'members', deferrable: true },
      { name: 'badges', type: 'relation-manager', label: 'Badges', relation: 'badges', deferrable: true },
    ]);
    const projects = (await schema(`${PROJECTS}/schema/form`)).fields as Array<Record<string, unknown>>;
    expect(projects.find((field) => field.name === 'steps')).toEqual({
      name: 'steps',
      type: 'relation-manager',
      label: 'Steps',
      relation: 'steps',
      deferrable: false,
    });
  });

  it('a relation the controller has not is 404', async () => {
    expect((await su.get(`${CREWS}/schema/relation/steps`)).status).toBe(404);
    expect((await su.get(`${CREWS}/schema/relation/name`)).status).toBe(404);
    expect((await su.get(`${CREWS}/schema/relation/__proto__`)).status).toBe(404);
    expect((await su.get('test/relations/members/schema/relation/crew')).status).toBe(404);
  });
});
