import { expect, type Page, test } from '@playwright/test';
import {
  apiAs,
  createAccount,
  createProducts,
  expectAccessible,
  expectFocusIndicators,
  expectNoMotion,
  screenshot,
  signIn,
  uniqueTag,
} from './support.ts';

/**
 * The accessibility sweep over every screen of the application (docs/admin-ui.md, "Tests"): axe in
 * both themes, a visible focus indicator on everything the Tab key reaches, nothing moving under
 * `prefers-reduced-motion`, and (with `--screenshots`) the gallery of every screen in both themes
 * and both locales. The dialogs of each screen are checked in the screen's own spec.
 */

interface Screen {
  name: string;
  path: (ids: { product: number }) => string;
}

const SCREENS: Screen[] = [
  { name: 'dashboard', path: () => '/backend' },
  { name: 'list-posts', path: () => '/backend/cms/journal/posts' },
  { name: 'list-products', path: () => '/backend/acme/catalog/products' },
  { name: 'form-create-post', path: () => '/backend/cms/journal/posts/create' },
  { name: 'form-update-product', path: ({ product }) => `/backend/acme/catalog/products/update/${product}` },
  { name: 'form-preview-product', path: ({ product }) => `/backend/acme/catalog/products/preview/${product}` },
  { name: 'singleton-storefront', path: () => '/backend/acme/catalog/storefront' },
  { name: 'reorder-categories', path: () => '/backend/cms/journal/categories/reorder' },
  { name: 'reorder-products', path: () => '/backend/acme/catalog/products/reorder' },
  { name: 'settings-index', path: () => '/backend/settings' },
  { name: 'settings-journal', path: () => '/backend/settings/journal' },
  { name: 'account', path: () => '/backend/account' },
  { name: 'account-preferences', path: () => '/backend/account/preferences' },
  { name: 'not-found', path: () => '/backend/no/such/screen' },
];

/** The screen has arrived: its heading is there and no chunk or request is still loading. */
async function settled(page: Page): Promise<void> {
  await expect(page.locator('main h1')).toBeVisible();
  await expect(page.locator('main h1')).not.toHaveText(/^(Loading…|Wird geladen…)$/);
  await expect(page.locator('main [aria-busy="true"]')).toHaveCount(0);
  await page.evaluate(() => document.fonts.ready);
}

async function arrange(): Promise<{ product: number; account: { login: string; password: string } }> {
  const api = await apiAs();
  const [product] = await createProducts(api, uniqueTag('a11y'), 1);
  // Its own account: the account screens show (and a test may change) only its own profile.
  const account = await createAccount(api, 'a11y');
  await api.dispose();
  return { product: product!, account };
}

for (const theme of ['light', 'dark'] as const) {
  test(`axe on every screen in the ${theme} theme`, async ({ page }) => {
    test.slow();
    await page.emulateMedia({ colorScheme: theme });
    const { product, account } = await arrange();
    await signIn(page, '/backend', account);
    for (const screen of SCREENS) {
      await page.goto(screen.path({ product }));
      await settled(page);
      await test.step(screen.name, () => expectAccessible(page));
      await screenshot(page, `gallery-${screen.name}-en-${theme}`);
    }
  });
}

test('a visible focus indicator on everything the Tab key reaches, on every screen', async ({ page }) => {
  test.slow();
  const { product, account } = await arrange();
  await signIn(page, '/backend', account);
  for (const screen of SCREENS) {
    await page.goto(screen.path({ product }));
    await settled(page);
    const checked = await test.step(screen.name, () => expectFocusIndicators(page));
    expect(checked, screen.name).toBeGreaterThan(3);
  }
});

test('nothing moves under prefers-reduced-motion', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const { product, account } = await arrange();
  await signIn(page, '/backend', account);
  for (const screen of SCREENS) {
    await page.goto(screen.path({ product }));
    await settled(page);
    await test.step(screen.name, () => expectNoMotion(page));
  }
});

test.describe('in German', () => {
  test.use({ locale: 'de-DE' });

  test('axe in German on the screens of part 3, wide and at 320 px without horizontal scrolling', async ({ page }) => {
    test.slow();
    const { product, account } = await arrange();
    await signIn(page, '/backend', account);
    const part3 = SCREENS.filter((screen) => /^(reorder|settings|account)/.test(screen.name));
    for (const width of [1280, 320]) {
      await page.setViewportSize({ width, height: 800 });
      for (const screen of part3) {
        await page.goto(screen.path({ product }));
        await settled(page);
        await test.step(`${screen.name} at ${width}`, () => expectAccessible(page));
        expect(await page.evaluate(() => document.documentElement.scrollWidth), screen.name).toBeLessThanOrEqual(width);
        await screenshot(page, `gallery-${screen.name}-de-${width}`);
      }
    }
    // The flagged run (`--screenshots`) adds every screen in German in both themes to the gallery.
    if (!process.env.UI_SCREENSHOTS) return;
    await page.setViewportSize({ width: 1280, height: 800 });
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      for (const screen of SCREENS) {
        await page.goto(screen.path({ product }));
        await settled(page);
        await screenshot(page, `gallery-${screen.name}-de-${theme}`);
      }
    }
  });
});
