import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';

/** Real `setTimeout` (only `setInterval` is faked below): waits until `check` holds or gives up. */
async function eventually(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check()) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
}

/**
 * Throttle counters whose window is over are swept by the admin's own timer (docs/auth.md,
 * "Login throttling"): refused attempts and attempts against unknown logins leave rows that no
 * successful login would ever clear.
 */
describe('throttle counters swept on a timer', () => {
  let t: TestAdmin;
  const keys = async () => (await t.sql<{ key: string }>('select key from cms_throttle order by key')).map((row) => row.key);

  beforeAll(async () => {
    // Only intervals are faked: the admin's maintenance timer, not the database drivers' timeouts.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    t = await startTestAdmin({
      throttle: { login: { max: 3, windowSeconds: 60 }, address: { max: 10, windowSeconds: 120 } },
    });
  });
  afterAll(async () => {
    await t.close();
    vi.useRealTimers();
  });

  it('drops expired counters every five minutes, with nobody signing in', async () => {
    await t.sql(
      `insert into cms_throttle (key, hits, window_started_at) values
        ('login:forgotten', 1, now() - interval '61 seconds'),
        ('account:1', 3, now() - interval '61 seconds'),
        ('address:10.0.0.1', 9, now() - interval '121 seconds'),
        ('login:recent', 1, now() - interval '30 seconds'),
        ('address:10.0.0.2', 4, now() - interval '61 seconds'),
        ('other:counter', 1, now() - interval '1 day')`,
    );
    const expected = ['address:10.0.0.2', 'login:recent', 'other:counter'];
    vi.advanceTimersByTime(4 * 60_000);
    expect(await keys()).toHaveLength(6);
    vi.advanceTimersByTime(60_000);
    await eventually(async () => (await keys()).length === expected.length);
    // The address window (120 s) keeps its younger counter; keys of other counters are left alone.
    expect(await keys()).toEqual(expected);
  });
});
