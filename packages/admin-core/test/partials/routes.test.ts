import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { expect422, signIn, type Client } from '../../../../test/support/client.ts';
import { CARDS, CARDS_PERMISSION, partialsPlugin } from '../fixtures/partials.ts';
import { insertCard } from './cards.ts';

/** `GET /{ctl}/partials/{name}` (docs/partials.md, "The route"): shapes, escaping, the `id` rules, 404s and permissions. */
describe('partial routes', () => {
  let t: TestAdmin;
  let su: Client;
  let ann: Client;
  let bob: Client;
  let annCard: number;
  let bobCard: number;

  beforeAll(async () => {
    t = await startTestAdmin({ adapter: 'node', plugins: [partialsPlugin] });
    su = await signIn(t, { isSuperuser: true });
    ann = await signIn(t, { permissions: { [CARDS_PERMISSION]: 1 }, login: 'ann_partials' });
    bob = await signIn(t, { permissions: { [CARDS_PERMISSION]: 1 } });
    annCard = await insertCard(t, ann.id, { title: 'Ann <script>alert("x")</script> & "co"', link: 'https://example.com/a?b=1&c=2' });
    bobCard = await insertCard(t, bob.id, { title: 'Bob' });
  });
  afterAll(() => t.close());

  it('renders a form partial with the record as a PartialView of `{tag, attrs, children}` and `{text}` nodes', async () => {
    const res = await ann.get(`${CARDS}/partials/card`, { id: String(annCard) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const title = 'Ann <script>alert("x")</script> & "co"';
    expect(res.body).toEqual({
      data: {
        nodes: [
          {
            tag: 'div',
            attrs: { class: 'card' },
            children: [
              { tag: 'h3', attrs: {}, children: [{ text: title }] },
              {
                tag: 'p',
                attrs: {},
                children: [{ tag: 'a', attrs: { href: 'https://example.com/a?b=1&c=2', title }, children: [{ text: 'Open' }] }],
              },
            ],
          },
        ],
      },
      meta: {},
    });
  });

  it('escapes record values: markup in a record is text, never an element or an attribute', async () => {
    const res = await ann.get(`${CARDS}/partials/card`, { id: String(annCard) });
    const json = JSON.stringify(res.body);
    expect(json).not.toContain('"tag":"script"');
    // The quote in the title stays inside the `title` attribute: no attribute was injected.
    expect(Object.keys(res.body.data.nodes[0].children[1].children[0].attrs)).toEqual(['href', 'title']);
  });

  it('without `id` the view model has no record', async () => {
    const res = await ann.get(`${CARDS}/partials/card`);
    expect(res.body).toEqual({ data: { nodes: [{ tag: 'p', attrs: {}, children: [{ text: 'Not saved yet' }] }] }, meta: {} });
    // Strings follow the request's locale.
    expect((await ann.locale('de').get(`${CARDS}/partials/card`)).body.data.nodes[0].children).toEqual([
      { text: 'Noch nicht gespeichert' },
    ]);
  });

  it("a non-form partial renders its own view model (principal, a query through the request's entity manager, plural strings)", async () => {
    const res = await ann.get(`${CARDS}/partials/list_header`);
    expect(res.status).toBe(200);
    const count = Number((await t.sql<{ n: number }>('select count(*)::int as n from test_partial_cards'))[0]!.n);
    expect(res.body.data.nodes).toEqual([
      {
        tag: 'p',
        attrs: { class: 'header' },
        children: [{ text: `${count} cards ` }, { tag: 'strong', attrs: {}, children: [{ text: 'ann_partials' }] }],
      },
    ]);
  });

  it('a record out of the form scope, or missing, is 404', async () => {
    expect((await ann.get(`${CARDS}/partials/card`, { id: String(bobCard) })).status).toBe(404);
    expect((await bob.get(`${CARDS}/partials/card`, { id: String(annCard) })).status).toBe(404);
    expect((await ann.get(`${CARDS}/partials/card`, { id: '2147483647' })).status).toBe(404);
    const res = await ann.get(`${CARDS}/partials/raw`, { id: String(bobCard) });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
    // The superuser's scope holds every card.
    expect((await su.get(`${CARDS}/partials/card`, { id: String(bobCard) })).status).toBe(200);
  });

  it('`id` on a partial that is not a form partial is 422 naming `id`', async () => {
    expect422(await ann.get(`${CARDS}/partials/list_header`, { id: String(annCard) }), ['id']);
    const res = await ann.get(`${CARDS}/partials/list_header`, { id: String(annCard) });
    expect(res.body.error.details.id).toEqual(['This partial takes no record id.']);
  });

  it('an `id` that is not a record id is 422 naming `id`', async () => {
    for (const id of ['abc', '0', '-1', '1.5', '01', ' 1', '1e3', '2147483648', '99999999999', '']) {
      expect422(await ann.get(`${CARDS}/partials/card`, { id }), ['id']);
    }
    // Twice in the query is not one id.
    expect422(await ann.get(`${CARDS}/partials/card?id=${annCard}&id=${annCard}`), ['id']);
    expect((await ann.locale('de').get(`${CARDS}/partials/card`, { id: 'x' })).body.error.details.id).toEqual([
      'Muss eine Datensatz-ID sein (eine positive ganze Zahl).',
    ]);
  });

  it('other query parameters are 422 naming them', async () => {
    expect422(await ann.get(`${CARDS}/partials/card`, { record: '1' }), ['record']);
    expect422(await ann.get(`${CARDS}/partials/card`, { 'id[]': '1' }), ['id[]']);
  });

  it('an unregistered partial is 404, whatever its name', async () => {
    for (const name of ['nope', 'constructor', '__proto__', 'toString', 'hasOwnProperty', 'CARD', 'card.', '%2e%2e']) {
      const res = await ann.get(`${CARDS}/partials/${name}`);
      expect(res.status, name).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
    // An unregistered partial is 404 before `id` is looked at.
    expect((await ann.get(`${CARDS}/partials/nope`, { id: 'x' })).status).toBe(404);
    // Controllers without partials answer 404 too.
    expect((await su.get('cms/journal/categories/partials/preview')).status).toBe(404);
  });

  it("the controller's permissions apply: 401 without a principal, 403 without the permission", async () => {
    expect((await t.http.get(`${API}/${CARDS}/partials/card`)).status).toBe(401);
    const nobody = await signIn(t, { permissions: {} });
    const res = await nobody.get(`${CARDS}/partials/card`);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('forbidden');
    // Refused before anything else is looked at: the same for an unknown partial and a bad id.
    expect((await nobody.get(`${CARDS}/partials/nope`)).status).toBe(403);
    expect((await nobody.get(`${CARDS}/partials/card`, { id: 'x' })).status).toBe(403);
  });

  it('the form and list schemas name the partials they show', async () => {
    const form = (await ann.get(`${CARDS}/schema/form`)).body.data;
    expect(form.fields.find((field: { name: string }) => field.name === 'summary')).toMatchObject({ type: 'partial', path: 'card' });
    expect(form.preview).toEqual({ headerPartial: 'card' });
    expect((await ann.get(`${CARDS}/schema/list`)).body.data.headerPartial).toBe('list_header');
  });
});
