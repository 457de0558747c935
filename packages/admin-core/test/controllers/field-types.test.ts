import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { enginePlugin, NOTES } from '../fixtures/engine.ts';
import { POSTS, PRODUCTS, pressPlugin } from '../fixtures/press.ts';
import { expect422, signIn, snapshot, type Client } from '../../../../test/support/client.ts';

/** Each built-in field type through HTTP, with its error codes (docs/field-types.md). */
describe('field types on save', () => {
  let t: TestAdmin;
  let su: Client;
  let productId: number;
  let postId: number;
  let noteId: number;

  beforeAll(async () => {
    t = await startTestAdmin({ plugins: [pressPlugin, enginePlugin] });
    su = await signIn(t, { isSuperuser: true });
    productId = (await su.post(PRODUCTS, { name: 'Lamp', sku: 'LAMP-1' })).body.data.id;
    postId = (await su.post(POSTS, { title: 'Field types', slug: 'field-types' })).body.data.id;
    noteId = (await su.post(NOTES, { title: 'Field types' })).body.data.id;
  });
  afterAll(() => t.close());

  const product = (body: Record<string, unknown>) => su.put(`${PRODUCTS}/${productId}`, body);
  const post = (body: Record<string, unknown>) => su.put(`${POSTS}/${postId}`, body);
  const note = (body: Record<string, unknown>) => su.put(`${NOTES}/${noteId}`, body);

  describe('money', () => {
    it('accepts decimal strings and fills the accepted string back unchanged', async () => {
      for (const price of ['10.5', '10.50', '0', '007.10', '1000000', '1000000.00']) {
        const res = await product({ price });
        expect(res.status, price).toBe(200);
        expect(res.body.data.price).toBe(price);
      }
      const cost = await product({ cost: '12.3456' });
      expect(cost.body.data.cost).toBe('12.3456');
      expect((await su.get(`${PRODUCTS}/${productId}`)).body.data.cost).toBe('12.3456');
      expect((await product({ price: null })).body.data.price).toBeNull();
    });

    it('money.invalid, money.too_precise, money.too_large; nothing stored', async () => {
      await product({ price: '5.00' });
      const before = await snapshot(t, ['test_press_products']);
      for (const price of [10.5, 10, '1,5', '1e3', 'abc', ' 1', '1.', '.5', '+1', true, ['1'], { amount: '1' }]) {
        expect422(await product({ price }), ['price'], 'money.invalid');
      }
      expect422(await product({ price: '1.234' }), ['price'], 'money.too_precise');
      expect422(await product({ cost: '1.23456' }), ['cost'], 'money.too_precise');
      expect422(await product({ price: '1000000.01' }), ['price'], 'money.too_large');
      // Below the default min "0" (docs/field-types.md, "money").
      expect422(await product({ price: '-1000001' }), ['price'], 'money.too_small');
      expect422(await product({ cost: '99999999999' }), ['cost'], 'money.too_large');
      // Two different codes in one answer: the generic code, each field named.
      expect422(await product({ price: '1.234', cost: 'x' }), ['cost', 'price']);
      expect(await snapshot(t, ['test_press_products'])).toEqual(before);
    });

    it('a JSON number is refused, even one that would fit', async () => {
      const res = await su.post(PRODUCTS, { name: 'Float', sku: 'FLOAT-1', price: 0.1 });
      expect422(res, ['price'], 'money.invalid');
      expect(res.body.error.details.price[0]).toMatch(/./);
    });
  });

  describe('taglist', () => {
    it('trims, drops empties and deduplicates', async () => {
      const res = await product({ features: ['  wood ', 'metal', '', 'wood', '   ', 'Metal'] });
      expect(res.body.data.features).toEqual(['wood', 'metal', 'Metal']);
      expect((await post({ tags: null })).body.data.tags).toEqual([]);
    });

    it('taglist.invalid for anything but a list of strings', async () => {
      for (const tags of ['a,b', 5, [1], ['a', null], [['a']], { a: 1 }, true]) {
        expect422(await post({ tags }), ['tags'], 'taglist.invalid');
      }
    });
  });

  describe('datepicker', () => {
    it('date mode: real days only; minDate rechecked on save', async () => {
      expect((await product({ release_date: '2000-01-01' })).body.data.release_date).toBe('2000-01-01');
      expect((await product({ release_date: '2024-02-29' })).body.data.release_date).toBe('2024-02-29');
      const before = await snapshot(t, ['test_press_products']);
      const early = await product({ release_date: '1999-12-31' });
      expect422(early, ['release_date']);
      expect(early.body.error.details.release_date[0]).toContain('2000-01-01');
      for (const day of ['2023-02-29', '2024-13-01', '2024-1-1', '01.02.2024', '2024-01-01T00:00:00Z', 20240101])
        expect422(await product({ release_date: day }), ['release_date']);
      expect(await snapshot(t, ['test_press_products'])).toEqual(before);
      expect((await product({ release_date: null })).body.data.release_date).toBeNull();
    });

    it('datetime mode: an offset or Z is required; the instant is served in UTC', async () => {
      expect((await post({ published_at: '2024-05-01T14:30:00+02:00' })).body.data.published_at).toBe('2024-05-01T12:30:00.000Z');
      expect((await post({ published_at: '2024-05-01T23:30:00.5Z' })).body.data.published_at).toBe('2024-05-01T23:30:00.500Z');
      for (const value of ['2024-05-01T14:30:00', '2024-05-01', '2024-05-01T24:00:00Z', 'now', 1714570200000])
        expect422(await post({ published_at: value }), ['published_at']);
      // An offset that carries the instant out of years 1..9999 is refused, not a database error.
      for (const value of ['9999-12-31T23:59:59-14:00', '0001-01-01T00:00:00+01:00'])
        expect422(await post({ published_at: value }), ['published_at']);
      expect((await post({ published_at: '9999-12-31T23:59:59Z' })).body.data.published_at).toBe('9999-12-31T23:59:59.000Z');
      expect((await post({ published_at: '0001-01-01T00:00:00Z' })).body.data.published_at).toBe('0001-01-01T00:00:00.000Z');
    });
  });

  describe('dropdown', () => {
    it('stores only offered values', async () => {
      expect((await post({ status: 'archived' })).body.data.status).toBe('archived');
      for (const status of ['deleted', 'Archived', '', null, 1, ['draft']]) expect422(await post({ status }), ['status']);
      expect422(await product({ currency: 'GBP' }), ['currency']);
      expect((await product({ currency: 'USD' })).body.data.currency).toBe('USD');
    });
  });

  describe('mltext', () => {
    it('a value per locale; every served locale present', async () => {
      expect((await note({ heading: { en: 'Hello', de: 'Hallo' } })).body.data.heading).toEqual({ en: 'Hello', de: 'Hallo' });
      expect((await note({ heading: { de: 'Nur Deutsch' } })).body.data.heading).toEqual({ en: '', de: 'Nur Deutsch' });
      expect((await note({ heading: null })).body.data.heading).toEqual({ en: '', de: '' });
      expect((await su.get(`${NOTES}/${noteId}`)).body.data.heading).toEqual({ en: '', de: '' });
      for (const heading of [{ fr: 'Bonjour' }, { en: 5 }, 'Hello', ['Hello']]) expect422(await note({ heading }), ['heading']);
    });
  });

  describe('number', () => {
    it('numbers (and numeric strings) over an integer column', async () => {
      expect((await note({ rank: 3 })).body.data.rank).toBe(3);
      expect((await note({ rank: '42' })).body.data.rank).toBe(42);
      expect((await note({ rank: null })).body.data.rank).toBeNull();
      for (const rank of [1.5, 'abc', '1 2', true, [1], 2 ** 53, '1e400']) expect422(await note({ rank }), ['rank']);
      // Beyond what an int column holds: a 422, not the database's "out of range".
      for (const rank of [2 ** 31, -(2 ** 31) - 1, '3000000000']) expect422(await note({ rank }), ['rank']);
      expect((await note({ rank: 2 ** 31 - 1 })).body.data.rank).toBe(2 ** 31 - 1);
    });
  });

  describe('richeditor and markdown', () => {
    it('richeditor: sanitized on save, with meta.notices naming the field in the request locale', async () => {
      const res = await su
        .locale('de')
        .put(`${NOTES}/${noteId}`, { body: '<p onclick="x()">Hi <b>there</b></p><script>alert(1)</script>' });
      expect(res.status).toBe(200);
      expect(res.body.data.body).toBe('<p>Hi <b>there</b></p>');
      expect(res.body.meta.notices).toEqual([{ field: 'body', message: expect.any(String), locale: 'de' }]);
      expect(res.body.meta.notices[0].message).not.toMatch(/::/);
      const clean = await note({ body: '<p>Clean <em>text</em></p>' });
      expect(clean.body.data.body).toBe('<p>Clean <em>text</em></p>');
      expect(clean.body.meta).not.toHaveProperty('notices');
      expect((await su.get(`${NOTES}/${noteId}`)).body.meta).not.toHaveProperty('notices');
    });

    it('markdown: raw HTML sanitized on save with a notice; plain markdown kept byte for byte', async () => {
      const source = '# Title\n\nSome *text* and `<script>` in code.\n\n<img src=x onerror="alert(1)">\n';
      const res = await post({ content: source });
      expect(res.status).toBe(200);
      expect(res.body.data.content).not.toContain('onerror');
      expect(res.body.data.content).toContain('`<script>` in code');
      expect(res.body.meta.notices).toEqual([{ field: 'content', message: expect.any(String), locale: 'en' }]);
      const plain = '# Title\r\n\r\n- a\n- b <b>bold</b>\n';
      const kept = await post({ content: plain });
      expect(kept.body.data.content).toBe(plain);
      expect(kept.body.meta).not.toHaveProperty('notices');
      // A create answers notices too.
      const created = await su.post(POSTS, { title: 'Notice', slug: 'notice', content: '<script>x</script>ok' });
      expect(created.status).toBe(201);
      expect(created.body.meta.notices).toHaveLength(1);
    });
  });

  describe('password', () => {
    it('is write-only: refused when too short or not a string, never served', async () => {
      expect422(await note({ pin: 12345678 }), ['pin']);
      expect422(await note({ pin: 'short' }), ['pin']);
      const res = await note({ pin: 'long enough pin' });
      expect(res.status).toBe(200);
      expect(res.body.data).not.toHaveProperty('pin');
    });
  });

  describe('text', () => {
    it('stored as sent, null clears a nullable column', async () => {
      expect((await post({ excerpt: '  spaced  ' })).body.data.excerpt).toBe('  spaced  ');
      expect((await post({ excerpt: null })).body.data.excerpt).toBeNull();
      for (const excerpt of [1, true, ['a'], { a: 'b' }]) expect422(await post({ excerpt }), ['excerpt']);
    });

    it('a value longer than its column is a 422, not a 500', async () => {
      const before = await snapshot(t, ['test_press_posts']);
      expect422(await post({ title: 'x'.repeat(256) }), ['title']);
      expect422(await product({ sku: 'x'.repeat(65) }), ['sku']);
      expect(await snapshot(t, ['test_press_posts'])).toEqual(before);
      expect((await post({ title: 'x'.repeat(255) })).status).toBe(200);
    });

    it('a NUL character is a 422, not a 500', async () => {
      expect422(await post({ title: 'a\u0000b' }), ['title']);
      expect422(await post({ tags: ['a\u0000b'] }), ['tags']);
    });
  });
});
