import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionsPlugin } from '../fixtures/actions.ts';
import { enginePlugin } from '../fixtures/engine.ts';
import { labPlugin } from '../fixtures/field-types.ts';
import { partialsPlugin } from '../fixtures/partials.ts';
import { relationsPlugin } from '../fixtures/relations.ts';
import { prefsPlugin } from '../fixtures/settings.ts';
import { API, startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { XHR } from '../../../../test/support/auth.ts';
import { signIn, type Client } from '../../../../test/support/client.ts';
import { DocumentChecker } from '../../../../test/support/openapi-document.ts';

/*
 * Answers of the fixture plugins' routes, successes and refusals, against the document
 * (docs/openapi.md, "Checking answers"): each status is declared and each body matches its
 * schema. A first guard until every HTTP test checks its answers.
 */

const NOTES = 'test/engine/notes';
const LABELS = 'test/engine/labels';
const CREWS = 'test/relations/crews';
const PROJECTS = 'test/relations/projects';
const ITEMS = 'test/actions/items';
const CARDS = 'test/partials/cards';
const LAB = 'tfx/lab/items';

describe('answers match the OpenAPI document', () => {
  let t: TestAdmin;
  let su: Client;
  let checker: DocumentChecker;
  const match = async (request: PromiseLike<import('supertest').Response>, status?: number) => {
    const response = await request;
    if (status !== undefined) expect(response.status, JSON.stringify(response.body)).toBe(status);
    checker.expectMatch(response);
    return response;
  };

  beforeAll(async () => {
    t = await startTestAdmin({ plugins: [enginePlugin, relationsPlugin, actionsPlugin, labPlugin(), partialsPlugin, prefsPlugin] });
    su = await signIn(t, { isSuperuser: true });
    checker = new DocumentChecker(t.core.openapi.document, API);
  });
  afterAll(() => t.close());

  it('core routes', async () => {
    await match(t.http.get(`${API}/lang`), 200);
    await match(t.http.get(`${API}/auth/me`), 401);
    await match(t.http.post(`${API}/auth/login`).send({ login: 'nobody', password: 'wrong password' }), 401);
    const admin = await t.createAdmin({ isSuperuser: true });
    const login = await match(t.http.post(`${API}/auth/login`).send({ login: admin.login, password: admin.password }), 200);
    const bearer = { Authorization: `Bearer ${login.body.data.access_token}` };
    await match(t.http.post(`${API}/auth/login`).set(XHR).send({ login: admin.login, password: admin.password }), 200);
    await match(t.http.get(`${API}/auth/me`).set(bearer), 200);
    await match(t.http.get(`${API}/account/preferences`).set(bearer), 200);
    await match(t.http.put(`${API}/account/preferences`).set(bearer).send({ admin_theme: 'dark' }), 200);
    await match(t.http.put(`${API}/account`).set(bearer).send({ email: 'x' }), 422);
    await match(t.http.put(`${API}/account`).set(bearer).send({ email: admin.email, first_name: 'Ada' }), 200);
    const token = await match(t.http.post(`${API}/account/tokens`).set(bearer).send({ name: 'ci' }), 201);
    await match(t.http.get(`${API}/account/tokens`).set(bearer), 200);
    await match(t.http.get(`${API}/account/tokens`).set({ Authorization: `Bearer ${token.body.data.token}` }), 403);
    await match(t.http.delete(`${API}/account/tokens/${token.body.data.id}`).set(bearer), 200);
    await match(t.http.delete(`${API}/account/tokens/999999`).set(bearer), 404);
    await match(t.http.delete(`${API}/account/avatar`).set(bearer), 200);
    await match(t.http.post(`${API}/auth/refresh`).set(bearer), 200);
    await match(su.get('navigation'), 200);
    await match(su.get('field-types'), 200);
    await match(su.get('navigation', { nope: 1 }), 422);
    await match(su.post('markdown/preview', { markdown: '# hi' }).set(XHR), 200);
    await match(su.post('markdown/preview', { markdown: '# hi' }), 403);
    await match(su.get('nope/nothing/here'), 404);
  });

  it('settings', async () => {
    await match(su.get('settings'), 200);
    await match(su.get('settings/shop'), 200);
    await match(su.get('settings/shop/schema'), 200);
    await match(
      su.put('settings/shop', { title: 'Shop', api_key: 'a secret key', tags: ['a'], price: '12.50', launch: '2024-05-01' }),
      200,
    );
    await match(su.put('settings/shop', { title: '' }), 422);
    await match(su.get('settings/nope'), 404);
  });

  it('a controller: list, schemas, create, show, update, options, delete', async () => {
    const label = await match(su.post(LABELS, { name: 'Public' }), 201);
    await match(su.get(NOTES, { sort: 'rank', dir: 'desc', 'filter[status]': 'open,closed', 'filter[ranked]': '1' }), 200);
    await match(su.get(NOTES, { sort: 'nope' }), 422);
    await match(su.get(`${NOTES}/schema/form`), 200);
    await match(su.get(`${NOTES}/schema/list`), 200);
    const created = await match(
      su.post(NOTES, {
        title: 'First',
        heading: { en: 'Hello' },
        body: '<p>ok<script>x</script></p>',
        rank: '3',
        pin: 'a long pin 1234',
        label: label.body.data.id,
        labels: [label.body.data.id],
      }),
      201,
    );
    const id = created.body.data.id;
    await match(su.post(NOTES, { title: 'forbidden' }), 403);
    await match(su.post(NOTES, { rank: 'many' }), 422);
    const shown = await match(su.get(`${NOTES}/${id}`), 200);
    await match(su.put(`${NOTES}/${id}`, { remark: 'r', status: 'closed' }), 200);
    await match(su.put(`${NOTES}/${id}`, { title: 'stale' }).set('If-Match', shown.body.meta.etag), 412);
    await match(su.get(`${NOTES}/${id}`), 200);
    await match(su.get(NOTES), 200);
    await match(su.get(`${NOTES}/fields/label/options`, { search: 'pub' }), 200);
    await match(su.get(`${NOTES}/fields/reviewer/options`), 404);
    await match(su.get(`${NOTES}/filters/owner/options`), 200);
    await match(su.get(`${NOTES}/999999`), 404);
    await match(su.post(`${NOTES}/bulk-delete`, { ids: [id, 999999] }), 409);
    await match(su.delete(`${LABELS}/${label.body.data.id}`), 422);
    await match(su.delete(`${NOTES}/${id}`), 200);
  });

  it('a value written outside the API is served as stored, and still matches', async () => {
    // A dropdown value no option names (seeded by SQL, or an option removed since): the record and the row serve it.
    const rows = await t.sql<{ id: number }>(
      "insert into test_engine_notes (title, owner_id, status) values ('Seeded', ?, 'archived') returning id",
      [su.id],
    );
    const shown = await match(su.get(`${NOTES}/${Number(rows[0]!.id)}`), 200);
    expect(shown.body.data.status).toBe('archived');
    await match(su.get(NOTES), 200);
    // The body still takes only the options.
    await match(su.put(`${NOTES}/${Number(rows[0]!.id)}`, { status: 'nope' }), 422);
  });

  it('plugin field types and uploads', async () => {
    const item = await match(su.post(LAB, { name: 'One', stamp: ' ABC ', motto: { en: ' Go ' } }), 201);
    await match(su.get(`${LAB}/${item.body.data.id}`), 200);
    await match(su.get(LAB), 200);
    await match(su.post(`${LAB}/${item.body.data.id}/fields/stamp/upload`).attach('file', Buffer.from('hello'), 'stamp.txt'), 200);
  });

  it('actions and partials', async () => {
    const rows = await t.sql<{ id: number }>(
      "insert into test_action_items (title, owner_id, status) values ('Act', ?, 'open') returning id",
      [su.id],
    );
    const id = Number(rows[0]!.id);
    await match(su.get(`${ITEMS}/${id}`), 200);
    await match(su.get(`${ITEMS}/schema/list`), 200);
    await match(su.post(`${ITEMS}/${id}/actions/close`), 200);
    await match(su.post(`${ITEMS}/${id}/actions/close`), 409);
    await match(su.post(`${ITEMS}/bulk/bump`, { ids: [id] }), 200);
    await match(su.post(`${ITEMS}/toolbar/outside`, {}).set(XHR), 200);
    await match(su.post(`${ITEMS}/widgets/helper`, { record_id: id, values: { title: 'x' }, payload: { a: 1 } }).set(XHR), 200);
    await match(su.post(`${ITEMS}/widgets/helper`, {}), 403);
    await match(su.get('test/actions/single/singleton'), 200);
    const card = await match(su.post(CARDS, { title: 'Card', link: 'https://example.com' }), 201);
    await match(su.get(`${CARDS}/partials/card`, { id: String(card.body.data.id) }), 200);
    await match(su.get(`${CARDS}/partials/nope`), 404);
  });

  it('relations and files', async () => {
    const crew = await match(su.post(CREWS, { name: 'Crew' }), 201);
    const id = crew.body.data.id;
    await match(su.get(`${CREWS}/schema/relation/members`), 200);
    await match(su.get(`${CREWS}/schema/relation/badges`), 200);
    await match(su.get(`${CREWS}/${id}/relations/members`), 200);
    const member = await match(su.post(`${CREWS}/${id}/relations/members/records`, { name: 'Ann', note: 'n' }), 201);
    await match(su.get(`${CREWS}/${id}/relations/members/records/${member.body.data.id}`), 200);
    await match(su.put(`${CREWS}/${id}/relations/members/records/${member.body.data.id}`, { name: 'Anne' }), 200);
    await match(su.get(`${CREWS}/${id}/relations/members/candidates`), 200);
    await match(su.post(`${CREWS}/${id}/relations/members/unlink`, { ids: [member.body.data.id] }), 200);
    await match(su.post(`${CREWS}/${id}/relations/members/link`, { ids: [member.body.data.id] }), 200);
    const badges = await t.sql<{ id: number }>("insert into test_rel_badges (name) values ('Gold') returning id");
    await match(su.post(`${CREWS}/${id}/relations/badges/link`, { ids: [badges[0]!.id], pivot: { weight: 3 } }), 200);
    await match(su.get(`${CREWS}/${id}/relations/badges/pivot/${badges[0]!.id}`), 200);
    await match(su.put(`${CREWS}/${id}/relations/badges/pivot/${badges[0]!.id}`, { weight: 4 }), 200);
    await match(su.put(`${CREWS}/${id}/relations/badges/pivot/${badges[0]!.id}`, { weight: 40 }), 422);
    await match(su.get(`${CREWS}/${id}/relations/nope`), 404);
    const project = await match(su.post(PROJECTS, { name: 'P' }), 201);
    const step = await match(su.post(`${PROJECTS}/${project.body.data.id}/relations/steps/records`, { name: 'S' }), 201);
    await match(su.post(`${PROJECTS}/${project.body.data.id}/relations/steps/delete`, { ids: [step.body.data.id] }), 200);
  });
});
