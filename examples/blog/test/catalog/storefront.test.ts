import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAdmin } from '../../../../test/support/app.ts';
import { expect422, signIn, snapshot, type Client } from '../../../../test/support/client.ts';
import { STOREFRONT, startBlogAdmin } from '../support/blog.ts';

const TABLES = ['acme_catalog_storefront'];

/**
 * The storefront singleton's `announcement` (mltext, en and de), `about` (richeditor) and
 * `open_on_sundays` (checkbox) (docs/field-types.md; the example app's contract).
 */
describe('the catalog storefront form', () => {
  let t: TestAdmin;
  let manager: Client;
  let id: number;

  beforeAll(async () => {
    t = await startBlogAdmin();
    manager = await signIn(t, { permissions: { 'acme.catalog.manage_products': 1 } });
    const opened = await manager.get(`${STOREFRONT}/singleton`);
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    id = opened.body.data.id as number;
  });
  afterAll(() => t.close());

  const row = async () =>
    (await t.sql('select name, tagline, announcement, about, open_on_sundays from acme_catalog_storefront where id = ?', [id]))[0];

  it('opens with the new fields empty and the checkbox off', async () => {
    const res = await manager.get(`${STOREFRONT}/singleton`);
    // An mltext absent on create is stored with every served locale as '' (docs/field-types.md).
    expect(res.body.data).toMatchObject({ id, announcement: { en: '', de: '' }, about: null, open_on_sundays: false });
  });

  it('lists the three fields in the form schema with their types, tagline staying plain text', async () => {
    const res = await manager.get(`${STOREFRONT}/schema/form`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const fields = res.body.data.fields as Array<Record<string, unknown>>;
    expect(fields.map((f) => [f.name, f.type])).toEqual([
      ['name', 'text'],
      ['tagline', 'text'],
      ['announcement', 'mltext'],
      ['about', 'richeditor'],
      ['open_on_sundays', 'checkbox'],
    ]);
    const byName = Object.fromEntries(fields.map((f) => [f.name, f]));
    expect(byName.announcement).toMatchObject({ label: 'Announcement' });
    expect(byName.about).toMatchObject({ label: 'About the shop' });
    expect(byName.open_on_sundays).toMatchObject({ label: 'Open on Sundays', default: false });
    const german = await manager.locale('de').get(`${STOREFRONT}/schema/form`);
    const labels = Object.fromEntries((german.body.data.fields as Array<Record<string, unknown>>).map((f) => [f.name, f.label]));
    expect(labels).toMatchObject({ announcement: 'Ankündigung', about: 'Über den Shop', open_on_sundays: 'Sonntags geöffnet' });
  });

  it('stores and reads back an announcement in en and de, about markup and the checkbox', async () => {
    const body = {
      announcement: { en: 'Closed on Monday.', de: 'Montag geschlossen.' },
      about: '<p>Paper and <strong>pens</strong>.</p>',
      open_on_sundays: true,
    };
    const res = await manager.put(`${STOREFRONT}/${id}`, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject(body);
    expect(res.body.meta).not.toHaveProperty('notices');
    expect((await manager.get(`${STOREFRONT}/singleton`)).body.data).toMatchObject(body);
    expect(await row()).toMatchObject(body);

    const off = await manager.put(`${STOREFRONT}/${id}`, { open_on_sundays: false });
    expect(off.status).toBe(200);
    expect(off.body.data).toMatchObject({ ...body, open_on_sundays: false });
    expect(await row()).toMatchObject({ open_on_sundays: false });
  });

  it('stores every served locale: one that is not sent is stored as an empty text', async () => {
    const res = await manager.put(`${STOREFRONT}/${id}`, { announcement: { en: 'Sale!' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.announcement).toEqual({ en: 'Sale!', de: '' });
    expect(await row()).toMatchObject({ announcement: { en: 'Sale!', de: '' } });
  });

  it('strips a <script> from about, answers the cleaned text and says so in meta.notices', async () => {
    const res = await manager.put(`${STOREFRONT}/${id}`, { about: '<p>Hello<script>alert(1)</script></p>' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.about).toBe('<p>Hello</p>');
    expect(res.body.meta.notices).toEqual([
      { field: 'about', message: 'Markup that is not allowed was removed from About the shop.', locale: 'en' },
    ]);
    expect(await row()).toMatchObject({ about: '<p>Hello</p>' });
  });

  it.each([
    ['a number for the checkbox', { open_on_sundays: 1 }, 'open_on_sundays', 'This field must be true or false.'],
    ['a string for the checkbox', { open_on_sundays: 'true' }, 'open_on_sundays', 'This field must be true or false.'],
    ['a string for the announcement', { announcement: 'Sale!' }, 'announcement', 'This field must be an object.'],
    ['an unknown locale', { announcement: { en: 'Sale!', fr: 'Soldes !' } }, 'announcement', 'The language fr is not offered.'],
  ])('refuses %s with 422 on the field, nothing written', async (_, body, field, message) => {
    const before = await snapshot(t, TABLES);
    const res = await manager.put(`${STOREFRONT}/${id}`, { ...body, tagline: 'Not saved' });
    expect422(res, [field]);
    expect(res.body.error.details[field]).toEqual([message]);
    expect(await snapshot(t, TABLES)).toEqual(before);
  });

  it('refuses all three at once, each field named', async () => {
    const before = await snapshot(t, TABLES);
    const res = await manager.put(`${STOREFRONT}/${id}`, { announcement: 'x', about: 42, open_on_sundays: 0 });
    expect422(res, ['announcement', 'about', 'open_on_sundays']);
    expect(await snapshot(t, TABLES)).toEqual(before);
  });
});
