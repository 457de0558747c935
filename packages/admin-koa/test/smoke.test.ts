import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, startTestAdmin, type TestAdmin } from '../../../test/support/app.ts';

describe('smoke', () => {
  let t: TestAdmin;
  beforeAll(async () => {
    t = await startTestAdmin();
  });
  afterAll(() => t.close());

  it('logs in and reads the profile', async () => {
    const seeded = await t.createAdmin({ isSuperuser: true });
    const token = await t.login(seeded.login, seeded.password);
    const me = await t.http.get(`${API}/auth/me`).set('Authorization', `Bearer ${token}`);
    expect(me.status).toBe(200);
    expect(me.body.data.login).toBe(seeded.login);
  });
});
