import { expect, type Page, test } from '@playwright/test';
import { API, apiAs, createAccount, expectAccessible, screenshot, signIn } from './support.ts';

/*
 * The settings screens (docs/admin-ui.md, "Settings"): the index with its filter and link entries,
 * the journal's settings form (save with If-Match, notices, a 422 under its field), its secret in
 * each state (kept, replaced, cleared; set by the environment), keyboard only, axe in both themes,
 * German at 320 px. The journal's settings are shared by every test of the run: these tests run
 * one after the other and put back what they change.
 */

const SETTINGS = '/backend/settings';
const JOURNAL = '/backend/settings/journal';
const DEFAULTS = { rss_title: 'Journal', rss_description: '', rss_limit: 20, rss_link: null, typesense_api_key: null };

const save = (page: Page) => page.getByRole('button', { name: 'Save', exact: true });
const saved = (page: Page) => expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
/**
 * The bodies of the page's saves of the journal's settings, read where they are routed (a request
 * event does not carry the body of a `fetch` made from a `Request` object).
 */
async function putBodies(page: Page): Promise<Record<string, unknown>[]> {
  const bodies: Record<string, unknown>[] = [];
  await page.route(`**${API}/settings/journal`, async (route) => {
    if (route.request().method() === 'PUT') bodies.push(route.request().postDataJSON());
    await route.fallback();
  });
  return bodies;
}

/** Presses Tab until the target has the focus (keyboard only: no click, no programmatic focus). */
async function tabTo(page: Page, target: ReturnType<Page['locator']>): Promise<void> {
  for (let i = 0; i < 60; i++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error('not reachable with Tab');
}

test.describe
  .serial('settings', () => {
    test.afterAll(async () => {
      const api = await apiAs();
      const answer = await api.put(`${API}/settings/journal`, { data: DEFAULTS });
      expect(answer.status(), await answer.text()).toBe(200);
      await api.dispose();
    });

    test.afterEach(async ({ page }) => {
      await page.unrouteAll({ behavior: 'ignoreErrors' });
    });

    test('the index groups the entries by category and filters them by a keyword', async ({ page }) => {
      await signIn(page, SETTINGS);
      await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
      await expect(page.getByRole('heading', { level: 2, name: 'Content' })).toBeVisible();
      await expect(page.getByRole('heading', { level: 2, name: 'System' })).toBeVisible();
      await expect(page.getByRole('main').getByRole('link', { name: 'Administrators', exact: true })).toBeVisible();
      await screenshot(page, 'settings-index');
      // `rss` is a keyword of the journal's entry, in neither its label nor its description.
      await page.getByLabel('Find a setting').fill('rss');
      await expect(page.getByRole('main').getByRole('link', { name: 'Journal' })).toBeVisible();
      await expect(page.getByRole('main').getByRole('link', { name: 'Administrators', exact: true })).toHaveCount(0);
      await expect(page.getByRole('heading', { level: 2, name: 'System' })).toHaveCount(0);
      await expect(page.getByRole('status').filter({ hasText: '1 setting found.' })).toBeVisible();
      // A keyword two entries share.
      await page.getByLabel('Find a setting').fill('PERMISSIONS');
      await expect(page.getByRole('main').getByRole('link', { name: 'Administrators', exact: true })).toBeVisible();
      await expect(page.getByRole('main').getByRole('link', { name: 'Administrator roles' })).toBeVisible();
      await expect(page.getByRole('main').getByRole('link', { name: 'Journal' })).toHaveCount(0);
      await expect(page.getByRole('status').filter({ hasText: '2 settings found.' })).toBeVisible();
      await page.getByLabel('Find a setting').fill('nothing like this');
      await expect(page.getByText('No setting matches this search.')).toBeVisible();
    });

    test('a link entry opens its controller', async ({ page }) => {
      await signIn(page, SETTINGS);
      await page.getByRole('main').getByRole('link', { name: 'Administrator roles' }).click();
      await expect(page).toHaveURL(/\/backend\/cms\/backend\/roles$/);
      await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
    });

    test('the journal’s settings: saved with If-Match, the notices shown, a 422 under its field', async ({ page }) => {
      const api = await apiAs();
      await signIn(page, SETTINGS);
      await page.getByRole('main').getByRole('link', { name: 'Journal' }).click();
      await expect(page).toHaveURL(/\/settings\/journal$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Journal' })).toBeFocused();
      const etag = (await (await api.get(`${API}/settings/journal`)).json()).meta.etag as string;
      // A sanitizer's notice, as a save of a rich text would answer it (the journal has no rich text).
      await page.route(`**${API}/settings/journal`, async (route) => {
        if (route.request().method() !== 'PUT') return route.fallback();
        const response = await route.fetch();
        const body = await response.json();
        body.meta.notices = [{ field: 'rss_description', message: 'Removed a script from Feed description.', locale: 'en' }];
        await route.fulfill({ response, json: body });
      });
      const ifMatch: (string | undefined)[] = [];
      const bodies = await putBodies(page);
      await page.route(`**${API}/settings/journal`, async (route) => {
        if (route.request().method() === 'PUT') ifMatch.push(route.request().headers()['if-match']);
        await route.fallback();
      });
      await page.getByLabel('Feed title').fill('Settings journal');
      await expect(page.getByText('Unsaved changes')).toBeVisible();
      await save(page).click();
      await saved(page);
      expect(bodies).toEqual([{ rss_title: 'Settings journal' }]);
      expect(ifMatch).toEqual([etag]);
      await expect(page.getByText('Removed a script from Feed description.')).toBeVisible();
      await expect(page.getByText('Unsaved changes')).toHaveCount(0);
      expect((await (await api.get(`${API}/settings/journal`)).json()).data.rss_title).toBe('Settings journal');
      await page.unrouteAll({ behavior: 'ignoreErrors' });
      // Out of range: the server's message under the field, and in the summary.
      await page.getByLabel('Posts in the feed').fill('500');
      await save(page).click();
      await expect(page.locator('.cms-error-summary')).toBeFocused();
      await expect(page.getByLabel('Posts in the feed')).toHaveAttribute('aria-invalid', 'true');
      await expect(page.locator('#field-rss_limit-error')).not.toBeEmpty();
      await screenshot(page, 'settings-journal-422');
      await page.getByLabel('Posts in the feed').fill('20');
      await save(page).click();
      await saved(page);
      await api.dispose();
    });

    test('a secret: kept when left alone, replaced when typed, cleared with null', async ({ page }) => {
      const api = await apiAs();
      expect((await api.put(`${API}/settings/journal`, { data: { typesense_api_key: 'first-key' } })).status()).toBe(200);
      const schema = page.waitForResponse((response) => response.url().endsWith(`${API}/settings/journal/schema`));
      await signIn(page, JOURNAL);
      // The spec's FormView of a settings form lists no assets, even with a switch (docs/settings.md).
      expect((await (await schema).json()).data.assets).toEqual({ scripts: [], styles: [] });
      const bodies = await putBodies(page);
      // Kept: a save of another field leaves the key out of the body.
      await page.getByLabel('Feed title').fill('Kept secret');
      await save(page).click();
      await saved(page);
      expect(bodies).toEqual([{ rss_title: 'Kept secret' }]);
      expect(bodies[0]).not.toHaveProperty('typesense_api_key');
      await page.getByRole('tab', { name: 'Search' }).click();
      // The switch is the core's element: the application loads its script from `GET /field-types`.
      await expect(page.getByRole('switch', { name: 'Index posts in Typesense' })).toBeVisible();
      const key = page.getByLabel('Typesense API key', { exact: true });
      await expect(key).toHaveValue('');
      await expect(page.getByText('A value is stored and never shown.')).toBeVisible();
      await expect(key).toHaveAccessibleDescription(/A value is stored/);
      expect((await (await api.get(`${API}/settings/journal`)).json()).meta.secrets.typesense_api_key).toBe('stored');
      await screenshot(page, 'settings-secret-stored');
      // Replaced.
      await key.fill('second-key');
      await save(page).click();
      await expect.poll(() => bodies.length).toBe(2);
      expect(bodies[1]).toEqual({ typesense_api_key: 'second-key' });
      await saved(page);
      await expect(key).toHaveValue('');
      await expect(page.getByText('A value is stored and never shown.')).toBeVisible();
      // Cleared: sent as null, and shown as empty afterwards.
      await page.getByRole('button', { name: 'Clear', exact: true }).click();
      await expect(page.getByText('The stored value will be cleared when you save.')).toBeVisible();
      await expect(page.getByText('Unsaved changes')).toBeVisible();
      // Undo, then clear again.
      await page.getByRole('button', { name: 'Keep the stored value' }).click();
      await expect(page.getByText('Unsaved changes')).toHaveCount(0);
      await page.getByRole('button', { name: 'Clear', exact: true }).click();
      await save(page).click();
      await expect.poll(() => bodies.length).toBe(3);
      expect(bodies[2]).toEqual({ typesense_api_key: null });
      await saved(page);
      await expect(page.getByText('No value is stored.')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Clear', exact: true })).toHaveCount(0);
      expect((await (await api.get(`${API}/settings/journal`)).json()).meta.secrets.typesense_api_key).toBe('empty');
      await api.dispose();
    });

    test('a secret set by the environment is shown read only', async ({ page }) => {
      // The test server sets no TYPESENSE_API_KEY: the answer is changed to say `env`.
      await page.route(`**${API}/settings/journal`, async (route) => {
        if (route.request().method() !== 'GET') return route.fallback();
        const response = await route.fetch();
        const body = await response.json();
        body.meta.secrets = { typesense_api_key: 'env' };
        await route.fulfill({ response, json: body });
      });
      await signIn(page, JOURNAL);
      await page.getByRole('tab', { name: 'Search' }).click();
      const key = page.getByLabel('Typesense API key', { exact: true });
      await expect(key).toHaveText('Set by the environment of the server (read only).');
      await expect(page.locator('input[type="password"]')).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Clear', exact: true })).toHaveCount(0);
      await screenshot(page, 'settings-secret-env');
      await expectAccessible(page);
    });

    test('changes are guarded and kept as a draft per settings code', async ({ page }) => {
      await signIn(page, JOURNAL);
      await page.getByLabel('Feed description').fill('A draft description');
      const admin = await page.evaluate(() => Object.keys(localStorage).find((key) => key.includes(':settings:journal')));
      await expect.poll(() => page.evaluate(() => Object.keys(localStorage).some((key) => key.endsWith(':settings:journal')))).toBe(true);
      expect(admin === undefined || admin.endsWith(':settings:journal')).toBe(true);
      await page.getByRole('link', { name: 'Back to the settings' }).click();
      const leave = page.getByRole('dialog', { name: 'Leave without saving?' });
      await expect(leave).toBeVisible();
      await leave.getByRole('button', { name: 'Discard changes' }).click();
      await expect(page).toHaveURL(/\/settings$/);
      expect(await page.evaluate(() => Object.keys(localStorage).some((key) => key.endsWith(':settings:journal')))).toBe(false);
    });

    test('a save after someone else’s: the 412 is merged, their field taken over, the save goes through', async ({ page }) => {
      const api = await apiAs();

      await signIn(page, JOURNAL);

      await expect(page.getByLabel('Feed title')).not.toHaveValue('');

      // Someone else saves the title while this form is open: the form's version is stale now.

      expect((await api.put(`${API}/settings/journal`, { data: { rss_title: 'Their title' } })).status()).toBe(200);

      await page.getByLabel('Feed description').fill('My description');

      await save(page).click();

      await saved(page);

      await expect(page.getByText('Taken over from the other save: Feed title.')).toBeVisible();

      await expect(page.getByLabel('Feed title')).toHaveValue('Their title');

      const stored = (await (await api.get(`${API}/settings/journal`)).json()).data;

      expect(stored).toMatchObject({ rss_title: 'Their title', rss_description: 'My description' });

      await api.dispose();
    });

    test('keyboard only: find the journal’s settings, change a value and save', async ({ page }) => {
      const api = await apiAs();
      await signIn(page, SETTINGS);
      await tabTo(page, page.getByLabel('Find a setting'));
      await page.keyboard.type('journal');
      await page.keyboard.press('Tab');
      await expect(page.getByRole('main').getByRole('link', { name: 'Journal' })).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(page.getByRole('heading', { level: 1, name: 'Journal' })).toBeFocused();
      await tabTo(page, page.getByLabel('Feed title'));
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.type('Typed journal');
      await page.keyboard.press('Enter');
      await saved(page);
      expect((await (await api.get(`${API}/settings/journal`)).json()).data.rss_title).toBe('Typed journal');
      // Ctrl+S too.
      await page.keyboard.type(' again');
      await page.keyboard.press('ControlOrMeta+s');
      await expect.poll(async () => (await (await api.get(`${API}/settings/journal`)).json()).data.rss_title).toBe('Typed journal again');
      await api.dispose();
    });

    for (const theme of ['light', 'dark'] as const) {
      test(`axe: the index, the filter and the journal’s form in the ${theme} theme`, async ({ page }) => {
        test.slow();
        await page.emulateMedia({ colorScheme: theme });
        await signIn(page, SETTINGS);
        await expect(page.getByRole('main').getByRole('link', { name: 'Journal' })).toBeVisible();
        await expectAccessible(page);
        await screenshot(page, `settings-index-${theme}`);
        await page.getByLabel('Find a setting').fill('zzz');
        await expect(page.getByText('No setting matches this search.')).toBeVisible();
        await expectAccessible(page);
        await page.goto(JOURNAL);
        await expect(page.getByLabel('Feed title')).toBeVisible();
        await expectAccessible(page);
        await page.getByRole('tab', { name: 'Search' }).click();
        await page.getByRole('button', { name: 'Show' }).click();
        await expectAccessible(page);
        await screenshot(page, `settings-journal-${theme}`);
      });
    }

    test('axe: the settings in German at 320 px, without horizontal scrolling', async ({ page }) => {
      const api = await apiAs();
      const account = await createAccount(api, 'setde');
      await api.dispose();
      await page.setViewportSize({ width: 320, height: 720 });
      await signIn(page, SETTINGS, account);
      await page.locator('details.cms-account summary').click();
      await page.getByLabel('Language').selectOption('de');
      await expect(page.getByRole('heading', { level: 1, name: 'Einstellungen' })).toBeVisible();
      await page.locator('details.cms-account summary').click();
      await expect(page.getByLabel('Einstellung suchen')).toBeVisible();
      await expect(page.getByRole('heading', { level: 2, name: 'Inhalte' })).toBeVisible();
      await screenshot(page, 'settings-index-de-320');
      await expectAccessible(page);
      const wide = () =>
        page.evaluate(() =>
          Array.from(document.querySelectorAll('main *'))
            .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1)
            .map((element) => `${element.localName}.${element.className}`),
        );
      expect(await wide()).toEqual([]);
      await page.getByRole('main').getByRole('link', { name: 'Journal' }).click();
      await expect(page.getByLabel('Feed-Titel')).toBeVisible();
      await page.getByRole('tab', { name: 'Suche' }).click();
      await expect(page.getByText('Es ist kein Wert gespeichert.')).toBeVisible();
      await screenshot(page, 'settings-journal-de-320');
      await expectAccessible(page);
      expect(await wide()).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    });
  });
