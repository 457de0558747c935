import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAdmin, type StartedTestAdmin, type TestClient } from '@cms/admin-core/testing';
import { eventsPlugin } from '../support/events/plugin.ts';

/*
 * `acme/events`, the smallest complete plugin of docs/plugin-guide.md: an entity with a relation,
 * a migration generated with `migration:create`, a controller with a list, a form, a relation
 * manager and a record action, settings, and strings with typed keys. Tested the way a plugin
 * author outside this repository would: `@cms/admin-core/testing` and nothing else.
 */
describe('acme/events (docs/plugin-guide.md, "The smallest complete plugin")', () => {
  let admin: StartedTestAdmin;
  let editor: TestClient;
  let outsider: TestClient;

  beforeAll(async () => {
    admin = await startTestAdmin({ plugins: [eventsPlugin], locales: ['en', 'de'] });
    editor = await admin.signIn({ permissions: ['acme.events.manage'] });
    outsider = await admin.signIn();
  });
  afterAll(() => admin?.close());

  it('starts: the generated migration ran and the string check found every key', async () => {
    const tables = await admin.sql<{ table_name: string }>(
      "select table_name from information_schema.tables where table_name like 'acme_events_%' order by 1",
    );
    expect(tables.map((row) => row.table_name)).toEqual(['acme_events_events', 'acme_events_sessions']);
    // No key missing, none unused (docs/strings.md, "Checked at start-up").
    expect(admin.logs.filter((line) => line.message.startsWith('plugin "acme.events"'))).toEqual([]);
  });

  it('creates an event, lists it, and refuses bad values and keys the form does not have in one 422', async () => {
    const created = await editor.post('acme/events/events', { title: 'Launch', starts_at: '2026-03-01T18:00:00Z', capacity: 80 });
    expect(created.status, created.text).toBe(201);
    expect(created.body.data).toMatchObject({ title: 'Launch', capacity: 80 });
    const list = await editor.get('acme/events/events', { search: 'laun' });
    expect(list.body.data.map((row: { title: string }) => row.title)).toEqual(['Launch']);
    const refused = await editor.post('acme/events/events', { title: '', capacity: 0, status: 'published' });
    expect(refused.status).toBe(422);
    expect(Object.keys(refused.body.error.details).sort()).toEqual(expect.arrayContaining(['capacity', 'status', 'title']));
    expect((await outsider.get('acme/events/events')).status).toBe(403);
  });

  it('the relation manager creates a session under the event', async () => {
    const [event] = await admin.sql<{ id: number }>("select id from acme_events_events where title = 'Launch'");
    const base = `acme/events/events/${event!.id}/relations/sessions`;
    const session = await editor.post(`${base}/records`, { title: 'Keynote' });
    expect(session.status, session.text).toBe(201);
    const members = await editor.get(base);
    expect(members.body.data.map((row: { title: string }) => row.title)).toEqual(['Keynote']);
  });

  it('the record action publishes a draft once, in the asked locale', async () => {
    const [event] = await admin.sql<{ id: number }>("select id from acme_events_events where title = 'Launch'");
    const shown = await editor.locale('de').get(`acme/events/events/${event!.id}`);
    expect(shown.body.meta.actions).toEqual([{ name: 'publish', label: 'Veröffentlichen' }]);
    expect((await editor.post(`acme/events/events/${event!.id}/actions/publish`)).status).toBe(200);
    expect((await admin.sql<{ status: string }>('select status from acme_events_events where id = ?', [event!.id]))[0]!.status).toBe(
      'published',
    );
    const again = await editor.post(`acme/events/events/${event!.id}/actions/publish`);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('action_not_applicable');
  });

  it('stores its settings', async () => {
    const saved = await editor.put('settings/events', { default_capacity: 50 });
    expect(saved.status, saved.text).toBe(200);
    expect(await admin.core.settings.values('events')).toEqual({ default_capacity: 50 });
  });

  it('the controller fits the goal of docs/plugin-guide.md: list, form, relation and action in at most 40 lines', () => {
    const source = readFileSync(new URL('../support/events/controller.ts', import.meta.url), 'utf8');
    const lines = source.slice(source.indexOf('defineController({')).split('\n');
    const length = lines.indexOf('});') + 1;
    expect(length).toBeGreaterThan(20);
    expect(length).toBeLessThanOrEqual(40);
  });
});
