import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAdmin, type StartedTestAdmin, type TestClient } from '@cms/admin-core/testing';
import { eventsPlugin } from '../support/events/plugin.ts';

/*
 * `acme/events`, the plugin of docs/plugin-quickstart.md: events with a title, a unique slug, a
 * start and an end in order, a capacity of 1..10000, a public switch, a venue, a poster image,
 * speakers as a child list, search, a filter, a sort, a duplicate action, a settings form with a
 * default capacity and English strings. Tested the way a plugin author outside this repository
 * would: `@cms/admin-core/testing` and nothing else.
 */

const EVENTS = 'acme/events/events';
const FOLDER = new URL('../support/events/', import.meta.url);
/** The smallest PNG there is: one transparent pixel. */
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

const event = (title: string, slug: string, day: number, extra: Record<string, unknown> = {}) => ({
  title,
  slug,
  starts_at: `2027-03-${String(day).padStart(2, '0')}T18:00:00.000Z`,
  ends_at: `2027-03-${String(day).padStart(2, '0')}T21:00:00.000Z`,
  ...extra,
});

describe('acme/events (docs/plugin-quickstart.md)', () => {
  let admin: StartedTestAdmin;
  let editor: TestClient;
  let outsider: TestClient;

  beforeAll(async () => {
    admin = await startTestAdmin({ plugins: [eventsPlugin] });
    editor = await admin.signIn({ permissions: ['acme.events.manage'] });
    outsider = await admin.signIn();
  });
  afterAll(() => admin?.close());

  it('starts: the generated migration ran and the string check found every key', async () => {
    const tables = await admin.sql<{ table_name: string }>(
      "select table_name from information_schema.tables where table_name like 'acme_events_%' order by 1",
    );
    expect(tables.map((row) => row.table_name)).toEqual(['acme_events_events', 'acme_events_speakers']);
    expect(admin.logs.filter((line) => line.message.startsWith('plugin "acme.events"'))).toEqual([]);
  });

  it('defaults every field, column, filter and label from the entity', async () => {
    const schema = await editor.get(`${EVENTS}/schema/form`);
    expect(schema.status, schema.text).toBe(200);
    const fields = Object.fromEntries(
      (schema.body.data.fields as Array<Record<string, unknown>>).map((field) => [
        field.name,
        {
          type: field.type,
          label: field.label,
          ...(field.required ? { required: true } : {}),
          ...(field.mode ? { mode: field.mode } : {}),
          ...(field.maxFiles ? { maxFiles: field.maxFiles } : {}),
        },
      ]),
    );
    expect(fields).toEqual({
      title: { type: 'text', label: 'Title', required: true },
      slug: { type: 'text', label: 'Slug', required: true },
      starts_at: { type: 'datepicker', label: 'Starts at', required: true, mode: 'datetime' },
      ends_at: { type: 'datepicker', label: 'Ends at', required: true, mode: 'datetime' },
      capacity: { type: 'number', label: 'Capacity' },
      is_public: { type: 'switch', label: 'Public' },
      venue: { type: 'text', label: 'Venue' },
      poster: { type: 'fileupload', label: 'Poster', mode: 'image', maxFiles: 1 },
      speakers: { type: 'relation-manager', label: 'Speakers' },
    });
    const list = await editor.get(`${EVENTS}/schema/list`);
    expect(list.body.data.title).toBe('Events');
    expect(list.body.data.columns.map((column: { key: string; label: string }) => [column.key, column.label])).toEqual([
      ['title', 'Title'],
      ['starts_at', 'Starts at'],
      ['venue', 'Venue'],
      ['is_public', 'Public'],
    ]);
    expect(list.body.data.filters).toEqual([expect.objectContaining({ name: 'is_public', type: 'switch', label: 'Public' })]);
    const navigation = await editor.get('navigation');
    expect(navigation.body.data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          label: 'Events',
          sideMenu: [expect.objectContaining({ label: 'Events', controller: EVENTS })],
        }),
      ]),
    );
    expect((await outsider.get(EVENTS)).status).toBe(403);
  });

  it('refuses an unknown key, capacity 0, an end before the start and a taken slug in one 422, writing nothing', async () => {
    expect((await editor.post(EVENTS, event('Taken', 'taken', 1))).status).toBe(201);
    const refused = await editor.post(EVENTS, {
      ...event('Again', 'taken', 2),
      ends_at: '2027-03-01T00:00:00.000Z',
      capacity: 0,
      colour: 'red',
    });
    expect(refused.status, refused.text).toBe(422);
    expect(Object.keys(refused.body.error.details).sort()).toEqual(['capacity', 'colour', 'ends_at', 'slug']);
    expect(await admin.sql('select slug from acme_events_events order by id')).toEqual([{ slug: 'taken' }]);
  });

  it('takes the default capacity from its settings form', async () => {
    expect((await editor.put('settings/events', { default_capacity: 120 })).status).toBe(200);
    const created = await editor.post(EVENTS, event('Meetup', 'meetup', 5, { venue: 'Hall 2' }));
    expect(created.status, created.text).toBe(201);
    expect(created.body.data).toMatchObject({ title: 'Meetup', capacity: 120, is_public: false, venue: 'Hall 2' });
  });

  it('searches, filters and sorts its list', async () => {
    await editor.post(EVENTS, event('Launch party', 'launch', 3, { is_public: true, capacity: 300 }));
    const titles = async (query: Record<string, string>) =>
      (await editor.get(EVENTS, query)).body.data.map((row: { title: string }) => row.title);
    expect(await titles({})).toEqual(['Taken', 'Launch party', 'Meetup']);
    expect(await titles({ search: 'meet' })).toEqual(['Meetup']);
    expect(await titles({ 'filter[is_public]': '1' })).toEqual(['Launch party']);
    expect(await titles({ sort: 'title', dir: 'desc' })).toEqual(['Taken', 'Meetup', 'Launch party']);
  });

  it('keeps a poster and a list of speakers', async () => {
    const [row] = await admin.sql<{ id: number }>("select id from acme_events_events where slug = 'launch'");
    const form = new FormData();
    form.append('file_data', new Blob([PIXEL], { type: 'image/png' }), 'poster.png');
    const poster = await editor.request('POST', `${EVENTS}/${row!.id}/files/poster`, { body: form });
    expect(poster.status, poster.text).toBe(201);
    // One poster (`maxFiles: 1`): a second upload replaces the first instead of adding a file.
    const again = new FormData();
    again.append('file_data', new Blob([PIXEL], { type: 'image/png' }), 'poster-2.png');
    expect((await editor.request('POST', `${EVENTS}/${row!.id}/files/poster`, { body: again })).status).toBe(201);
    const posters = await editor.get(`${EVENTS}/${row!.id}/files/poster`);
    expect(posters.body.data.map((file: { file_name: string }) => file.file_name)).toEqual(['poster-2.png']);
    const speakers = `${EVENTS}/${row!.id}/relations/speakers`;
    expect((await editor.post(`${speakers}/records`, { name: 'Ada' })).status).toBe(201);
    expect((await editor.get(speakers)).body.data.map((speaker: { name: string }) => speaker.name)).toEqual(['Ada']);
  });

  it('duplicates an event with its speakers and poster, as a draft under a new slug', async () => {
    const [row] = await admin.sql<{ id: number }>("select id from acme_events_events where slug = 'launch'");
    const copied = await editor.post(`${EVENTS}/${row!.id}/actions/duplicate`);
    expect(copied.status, copied.text).toBe(200);
    expect(copied.body.data).toMatchObject({ message: 'Duplicated.', data: { redirect: expect.stringContaining('/update/') } });
    const copy = (await editor.get(`${EVENTS}/${copied.body.data.data.id}`)).body.data;
    expect(copy).toMatchObject({ title: 'Launch party', slug: 'launch-copy', is_public: false, capacity: 300 });
    const speakers = await editor.get(`${EVENTS}/${copy.id}/relations/speakers`);
    expect(speakers.body.data.map((speaker: { name: string }) => speaker.name)).toEqual(['Ada']);
    const posters = await editor.get(`${EVENTS}/${copy.id}/files/poster`);
    expect(posters.body.data).toEqual([expect.objectContaining({ file_name: 'poster-2.png' })]);
    const original = await editor.get(`${EVENTS}/${row!.id}/files/poster`);
    expect(posters.body.data[0].url).not.toBe(original.body.data[0].url);
  });

  it('is shown file by file, as it is, in docs/plugin-quickstart.md', () => {
    const page = readFileSync(new URL('../../../../docs/plugin-quickstart.md', import.meta.url), 'utf8');
    const shown = [...page.matchAll(/^### `([\w/.-]+\.ts)`\n\n```ts\n([\s\S]*?)\n```$/gm)].map(([, name, code]) => [name, code]);
    const files = ['entities.ts', 'controller.ts', 'strings.ts', 'plugin.ts', 'migrations/index.ts'];
    expect(shown.map(([name]) => name)).toEqual(files);
    for (const [name, code] of shown) expect(code, name).toBe(readFileSync(new URL(name!, FOLDER), 'utf8').trimEnd());
    expect(page).toContain(`**${handWrittenLines()} hand-written lines**`);
  });

  it('fits in 110 hand-written lines (docs/plugin-quickstart.md, "How long it is")', () => {
    expect(handWrittenLines()).toBeLessThanOrEqual(110);
  });
});

/**
 * Non-blank lines that are not comments, in the plugin's files after Biome's formatting, the
 * generated migrations left out (docs/plugin-quickstart.md, "How long it is").
 */
export function handWrittenLines(): number {
  // The migration list counts, though `migration:create` writes it; the migrations do not.
  const files = [...readdirSync(FOLDER).filter((name) => name.endsWith('.ts')), 'migrations/index.ts'];
  let count = 0;
  for (const name of files) {
    let comment = false;
    for (const raw of readFileSync(new URL(name, FOLDER), 'utf8').split('\n')) {
      const line = raw.trim();
      if (comment) {
        comment = !line.includes('*/');
        continue;
      }
      if (line.startsWith('/*')) {
        comment = !line.includes('*/');
        continue;
      }
      if (line === '' || line.startsWith('//')) continue;
      count += 1;
    }
  }
  return count;
}
