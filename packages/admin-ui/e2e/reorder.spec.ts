import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { API, apiAs, createAccount, createProducts, expectAccessible, screenshot, signIn, uniqueTag } from './support.ts';

/**
 * The reorder screen (docs/admin-ui.md, "Reorder"): a treeview with a keyboard grab mode, pointer
 * drag and a "Move to" dialog; saving sends the whole set, a stale save is re-applied on the set
 * read again, the unsaved order is guarded, and a large set is virtualized.
 */

// One worker, in order: the server sees a changed membership (409) but not a changed order, so two
// of these tests saving the same set at once could undo each other's order.
test.describe.configure({ mode: 'default' });

const CATEGORIES = 'cms/journal/categories';
const PRODUCTS = 'acme/catalog/products';

interface Node {
  id: number;
  label: string;
  parent_id: number | null;
}

test.afterEach(async ({ page }) => {
  if (!page.isClosed()) await page.unrouteAll({ behavior: 'ignoreErrors' });
});

async function readSet(api: APIRequestContext, ctl: string): Promise<Node[]> {
  const answer = await api.get(`${API}/${ctl}/reorder`);
  expect(answer.status()).toBe(200);
  return (await answer.json()).data as Node[];
}

/** Puts `placed` (id and parent) at the end (or the start) of the set, through the API; retried when another test changed the set. */
async function arrange(
  api: APIRequestContext,
  ctl: string,
  placed: { id: number; parent_id: number | null }[],
  atStart = false,
): Promise<void> {
  const tree = ctl === CATEGORIES;
  for (let attempt = 0; attempt < 5; attempt++) {
    const ids = new Set(placed.map((node) => node.id));
    const set = await readSet(api, ctl);
    // Children of a moved node that are not moved become roots (kept valid).
    const rest = set
      .filter((node) => !ids.has(node.id))
      .map((node) => ({ id: node.id, parent_id: ids.has(node.parent_id ?? 0) ? null : node.parent_id }));
    const nodes = atStart ? [...placed, ...rest] : [...rest, ...placed];
    const body = { nodes: nodes.map((node) => (tree ? node : { id: node.id })) };
    const answer = await api.post(`${API}/${ctl}/reorder`, { data: body });
    if (answer.status() === 200) return;
    expect(answer.status(), await answer.text()).toBe(409);
  }
  throw new Error('the set kept changing');
}

async function createCategories(api: APIRequestContext, tag: string, names: string[]): Promise<number[]> {
  const ids: number[] = [];
  for (const name of names) {
    const answer = await api.post(`${API}/${CATEGORIES}`, { data: { name: `${tag} ${name}`, slug: `${tag}-${name}`.toLowerCase() } });
    expect(answer.status(), await answer.text()).toBe(201);
    ids.push((await answer.json()).data.id);
  }
  return ids;
}

const status = (page: Page) => page.locator('cms-reorder .cms-status');
const row = (page: Page, name: string) => page.getByRole('treeitem', { name, exact: true });
const focused = (page: Page) => page.locator('[role="treeitem"]:focus');

/** The relative order of some ids in a set, with their parents. */
function placesOf(set: Node[], ids: number[]): string[] {
  return set.filter((node) => ids.includes(node.id)).map((node) => `${node.id}<${node.parent_id ?? '-'}`);
}

test('flat: a pointer drag, then Save; the order is stored', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('rdf');
  const [p1, p2, p3] = (await createProducts(api, tag, 3)) as [number, number, number];
  await arrange(
    api,
    PRODUCTS,
    [p1, p2, p3].map((id) => ({ id, parent_id: null })),
    true,
  );
  await signIn(page, `/backend/${PRODUCTS}/reorder`);
  await expect(page.getByRole('heading', { level: 1, name: 'Reorder products' })).toBeVisible();
  const first = row(page, `${tag} 1`);
  const third = row(page, `${tag} 3`);
  await expect(third).toBeVisible();
  const from = (await third.locator('.cms-reorder-handle').boundingBox())!;
  const to = (await first.boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(to.x + 40, to.y + to.height / 2 - 4, { steps: 5 });
  await page.mouse.move(to.x + 40, to.y + 4, { steps: 5 });
  await page.mouse.up();
  // The position depends on what other tests put first meanwhile; the order of the three is what counts.
  await expect(status(page)).toContainText(new RegExp(`Moved ${tag} 3 to position \\d+ of \\d+\\.`));
  await expect(page.getByText('Unsaved order')).toBeVisible();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(status(page)).toContainText('Order saved.');
  await expect(page.getByText('Unsaved order')).toHaveCount(0);
  expect(placesOf(await readSet(api, PRODUCTS), [p1, p2, p3])).toEqual([`${p3}<-`, `${p1}<-`, `${p2}<-`]);
  await api.dispose();
});

test('flat, keyboard only: picked up, moved down twice, no levels to indent into; saved with the keyboard', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('rfk');
  const [p1, p2, p3] = (await createProducts(api, tag, 3)) as [number, number, number];
  await arrange(
    api,
    PRODUCTS,
    [p1, p2, p3].map((id) => ({ id, parent_id: null })),
  );
  await signIn(page, `/backend/${PRODUCTS}/reorder`);
  await expect(page.getByRole('heading', { level: 1, name: 'Reorder products' })).toBeVisible();
  await page.getByRole('button', { name: 'Move to…' }).focus();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(focused(page)).toHaveCount(1);
  // Typeahead from the first row (Space would pick up: the tag alone finds the first of the three).
  await page.keyboard.type(tag);
  await expect(focused(page)).toHaveAccessibleName(`${tag} 1`);
  await page.keyboard.press('Space');
  await expect(status(page)).toContainText(`Picked up ${tag} 1`);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(status(page)).toContainText(new RegExp(`Moved ${tag} 1 to position \\d+ of \\d+\\.`));
  await expect(focused(page)).toHaveAccessibleName(`${tag} 1`);
  // A flat list has no levels: indenting is refused and said.
  await page.keyboard.press('ArrowRight');
  await expect(status(page)).toContainText('This list is flat: it has no levels.');
  await page.keyboard.press('Enter');
  await expect(status(page)).toContainText(`Dropped ${tag} 1.`);
  await page.getByRole('button', { name: 'Save', exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect(status(page)).toContainText('Order saved.');
  expect(placesOf(await readSet(api, PRODUCTS), [p1, p2, p3])).toEqual([`${p2}<-`, `${p3}<-`, `${p1}<-`]);
  await api.dispose();
});

test('tree, keyboard only: move, indent and outdent, each announced; saved and stored', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('rdk');
  const [a, b, c] = (await createCategories(api, tag, ['A', 'B', 'C'])) as [number, number, number];
  await arrange(
    api,
    CATEGORIES,
    [a, b, c].map((id) => ({ id, parent_id: null })),
  );
  await signIn(page, `/backend/${CATEGORIES}/reorder`);
  await expect(page.getByRole('heading', { level: 1, name: 'Reorder categories' })).toBeVisible();
  // Into the tree with Tab, then typeahead to A and down to C.
  await page.getByRole('button', { name: 'Move to…' }).focus();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(focused(page)).toHaveCount(1);
  await page.keyboard.type(tag);
  await expect(focused(page)).toHaveAccessibleName(`${tag} A`);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(focused(page)).toHaveAccessibleName(`${tag} C`);
  await page.keyboard.press('Space');
  await expect(status(page)).toContainText(`Picked up ${tag} C`);
  await page.keyboard.press('ArrowUp');
  await expect(status(page)).toContainText(new RegExp(`Moved ${tag} C to position \\d+ of \\d+ at the top level\\.`));
  await page.keyboard.press('ArrowRight');
  await expect(status(page)).toHaveText(`Moved ${tag} C to position 1 of 1 under ${tag} A.`);
  await page.keyboard.press('Space');
  await expect(status(page)).toContainText(`Dropped ${tag} C.`);
  await expect(row(page, `${tag} C`)).toHaveAttribute('aria-level', '2');
  // B under A (after C), then one deeper under C with Tab, then back out with Shift+Tab.
  await page.keyboard.press('ArrowDown');
  await expect(focused(page)).toHaveAccessibleName(`${tag} B`);
  await page.keyboard.press('Enter');
  await page.keyboard.press('ArrowRight');
  await expect(status(page)).toHaveText(`Moved ${tag} B to position 2 of 2 under ${tag} A.`);
  await page.keyboard.press('Tab');
  await expect(status(page)).toHaveText(`Moved ${tag} B to position 1 of 1 under ${tag} C.`);
  await expect(focused(page)).toHaveAttribute('aria-level', '3');
  await page.keyboard.press('Shift+Tab');
  await expect(status(page)).toHaveText(`Moved ${tag} B to position 2 of 2 under ${tag} A.`);
  await page.keyboard.press('Enter');
  // A grab that is cancelled puts the node back.
  await page.keyboard.press('Space');
  await page.keyboard.press('ArrowLeft');
  await expect(status(page)).toContainText('at the top level');
  await page.keyboard.press('Escape');
  await expect(status(page)).toHaveText(`Move cancelled: ${tag} B is back where it was.`);
  await expect(row(page, `${tag} B`)).toHaveAttribute('aria-level', '2');
  await page.getByRole('button', { name: 'Save', exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect(status(page)).toContainText('Order saved.');
  expect(placesOf(await readSet(api, CATEGORIES), [a, b, c])).toEqual([`${a}<-`, `${c}<${a}`, `${b}<${a}`]);
  await api.dispose();
});

test('maxDepth: indenting beyond level 3 is not possible, and the screen says why', async ({ page }) => {
  // A fixed tree (A > B > C, D), so that no other test's save changes it meanwhile.
  const nodes: Node[] = [
    { id: 900001, label: 'Depth A', parent_id: null },
    { id: 900002, label: 'Depth B', parent_id: 900001 },
    { id: 900003, label: 'Depth C', parent_id: 900002 },
    { id: 900004, label: 'Depth D', parent_id: 900002 },
  ];
  await page.route(`**${API}/${CATEGORIES}/reorder`, (route) =>
    route.fulfill({ json: { data: nodes, meta: { total: 4, tree: true, max_depth: 3 } } }),
  );
  await signIn(page, `/backend/${CATEGORIES}/reorder`);
  // Levels are indented from the first render (set through the CSSOM: the CSP refuses style attributes).
  const x = async (name: string) => (await row(page, name).locator('.cms-reorder-handle').boundingBox())!.x;
  expect(await x('Depth C')).toBeGreaterThan((await x('Depth B')) + 10);
  expect(await x('Depth B')).toBeGreaterThan((await x('Depth A')) + 10);
  await row(page, 'Depth D').click();
  await expect(focused(page)).toHaveAccessibleName('Depth D');
  await page.keyboard.press('Space');
  await page.keyboard.press('ArrowRight');
  await expect(status(page)).toHaveText('Depth D cannot go deeper: the tree may be at most 3 levels deep.');
  await expect(row(page, 'Depth D')).toHaveAttribute('aria-level', '3');
  // B is the first of its siblings: there is nothing to indent it under.
  await page.keyboard.press('Escape');
  await row(page, 'Depth B').click();
  await page.keyboard.press('Space');
  await page.keyboard.press('ArrowRight');
  await expect(status(page)).toHaveText('Depth B cannot be indented: there is no item above it at its level to go under.');
  await page.keyboard.press('Escape');
  // The move dialog offers no parent that would make the tree too deep: B (two levels) only under A or at the top.
  await page.getByRole('button', { name: 'Move to…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Move Depth B' });
  await expect(dialog.getByLabel('Under').locator('option')).toHaveText(['Top level', 'Depth A']);
  await page.keyboard.press('Escape');
  await expect(page.getByText('Unsaved order')).toHaveCount(0);
});

test('409 reorder_stale: the set is read again, the moves re-applied and saved; a move whose anchor is gone is listed', async ({
  page,
}) => {
  const api = await apiAs();
  const tag = uniqueTag('rds');
  const [a, b, c] = (await createCategories(api, tag, ['A', 'B', 'C'])) as [number, number, number];
  await arrange(
    api,
    CATEGORIES,
    [a, b, c].map((id) => ({ id, parent_id: null })),
  );
  await signIn(page, `/backend/${CATEGORIES}/reorder`);
  await row(page, `${tag} C`).click();
  await page.keyboard.press('Space');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Space');
  await expect(row(page, `${tag} C`)).toHaveAttribute('aria-level', '2');
  // Another admin adds a category meanwhile.
  const [x] = (await createCategories(api, tag, ['X'])) as [number];
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(status(page)).toContainText('The list changed meanwhile. It was read again and your move was applied to it. Order saved.');
  await expect(row(page, `${tag} X`)).toBeVisible();
  const set = await readSet(api, CATEGORIES);
  expect(placesOf(set, [a, b, c])).toEqual([`${a}<-`, `${c}<${a}`, `${b}<-`]);
  expect(set.some((node) => node.id === x)).toBe(true);

  // Now B goes under X; X is deleted meanwhile: that move is listed to place by hand.
  await row(page, `${tag} B`).click();
  await page.getByRole('button', { name: 'Move to…' }).click();
  const dialog = page.getByRole('dialog', { name: `Move ${tag} B` });
  await dialog.getByLabel('Under').selectOption({ label: `${tag} X` });
  await dialog.getByLabel(/^Position/).fill('1');
  await dialog.getByRole('button', { name: 'Move', exact: true }).click();
  await expect(status(page)).toHaveText(`Moved ${tag} B to position 1 of 1 under ${tag} X.`);
  const removed = await api.delete(`${API}/${CATEGORIES}/${x}`);
  expect(removed.status(), await removed.text()).toBeLessThan(300);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const unplaced = page.getByRole('region', { name: 'Moves to place by hand' });
  await expect(unplaced).toContainText(`${tag} B first under ${tag} X`);
  await expect(row(page, `${tag} X`)).toHaveCount(0);
  await expect(page.getByText('Unsaved order')).toHaveCount(0);
  await api.dispose();
});

test('a large set is virtualized: few rows in the page, positions still right; a set over 10,000 says so', async ({ page }) => {
  const nodes: Node[] = [];
  for (let id = 1; id <= 5000; id++) nodes.push({ id, label: `Node ${id}`, parent_id: id % 10 === 1 ? null : id - ((id - 1) % 10) });
  await page.route(`**${API}/${CATEGORIES}/reorder`, (route) =>
    route.request().method() === 'GET'
      ? route.fulfill({ json: { data: nodes, meta: { total: nodes.length, tree: true, max_depth: 3 } } })
      : route.fallback(),
  );
  await signIn(page, `/backend/${CATEGORIES}/reorder`);
  await expect(row(page, 'Node 1')).toBeVisible();
  await expect(page.getByText('5,000 items')).toBeVisible();
  expect(await page.locator('[role="treeitem"]').count()).toBeLessThan(150);
  // The spacers stand for the rows not rendered: the tree is as tall as all 5,000 rows.
  expect(await page.locator('.cms-reorder-tree').evaluate((tree) => tree.getBoundingClientRect().height)).toBeGreaterThan(5000 * 30);
  await row(page, 'Node 1').click();
  await page.keyboard.press('End');
  const last = row(page, 'Node 5000');
  await expect(last).toBeFocused();
  await expect(last).toHaveAttribute('aria-level', '2');
  await expect(last).toHaveAttribute('aria-posinset', '9');
  await expect(last).toHaveAttribute('aria-setsize', '9');
  expect(await page.locator('[role="treeitem"]').count()).toBeLessThan(150);
  // Grab the last root's last child and move it up across its parent: the focus follows.
  await page.keyboard.press('Space');
  await page.keyboard.press('ArrowUp');
  await expect(status(page)).toHaveText('Moved Node 5000 to position 8 of 9 under Node 4991.');
  await expect(last).toBeFocused();
  await page.keyboard.press('Escape');

  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await page.route(`**${API}/${CATEGORIES}/reorder`, (route) =>
    route.fulfill({ json: { data: [], meta: { total: 10_001, tree: true, max_depth: 3 } } }),
  );
  await page.goto(`/backend/${CATEGORIES}/reorder`);
  await expect(
    page.getByText('This list has 10,001 records; one save takes at most 10,000, so it cannot be reordered here.'),
  ).toBeVisible();
});

test('an unsaved order is guarded on leaving by a link; Reset goes back', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('rdg');
  await createCategories(api, tag, ['A', 'B']);
  await signIn(page, `/backend/${CATEGORIES}/reorder`);
  await row(page, `${tag} B`).click();
  await page.keyboard.press('Space');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Space');
  await expect(page.getByText('Unsaved order')).toBeVisible();
  await page.getByRole('link', { name: 'Back to the list' }).click();
  const leave = page.getByRole('dialog', { name: 'Leave without saving?' });
  await expect(leave).toBeVisible();
  await leave.getByRole('button', { name: 'Stay' }).click();
  await expect(page).toHaveURL(/\/reorder$/);
  await page.getByRole('button', { name: 'Reset' }).click();
  await expect(page.getByText('Unsaved order')).toHaveCount(0);
  await expect(status(page)).toHaveText('Order reset to the saved one.');
  await page.getByRole('link', { name: 'Back to the list' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Categories' })).toBeVisible();
  await api.dispose();
});

test('the move dialog: a long move by parent and position, a wrong position refused, Esc returns the focus', async ({ page }) => {
  const api = await apiAs();
  const tag = uniqueTag('rdm');
  const [a, b] = (await createCategories(api, tag, ['A', 'B'])) as [number, number];
  await arrange(
    api,
    CATEGORIES,
    [a, b].map((id) => ({ id, parent_id: null })),
    true,
  );
  await signIn(page, `/backend/${CATEGORIES}/reorder`);
  await row(page, `${tag} B`).click();
  const open = page.getByRole('button', { name: 'Move to…' });
  await open.click();
  const dialog = page.getByRole('dialog', { name: `Move ${tag} B` });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(open).toBeFocused();
  await open.click();
  await dialog.getByLabel('Under').selectOption({ label: `${tag} A` });
  await dialog.getByLabel(/^Position/).fill('5');
  await dialog.getByRole('button', { name: 'Move', exact: true }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Enter a position from 1 to 1.');
  await dialog.getByLabel(/^Position/).fill('1');
  await dialog.getByRole('button', { name: 'Move', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(status(page)).toHaveText(`Moved ${tag} B to position 1 of 1 under ${tag} A.`);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(status(page)).toContainText('Order saved.');
  expect(placesOf(await readSet(api, CATEGORIES), [a, b])).toEqual([`${a}<-`, `${b}<${a}`]);
  await api.dispose();
});

for (const theme of ['light', 'dark'] as const) {
  test(`axe: the reorder screen, grab mode and the move dialog in the ${theme} theme`, async ({ page }) => {
    test.slow();
    await page.emulateMedia({ colorScheme: theme });
    await signIn(page, `/backend/${CATEGORIES}`);
    await page.getByRole('link', { name: 'Reorder', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Reorder categories' })).toBeVisible();
    await expect(page.locator('[role="treeitem"]').first()).toBeVisible();
    await expectAccessible(page);
    await screenshot(page, `reorder-${theme}`);
    await page.locator('[role="treeitem"]').first().click();
    await page.keyboard.press('Space');
    await page.keyboard.press('ArrowDown');
    await expect(page.locator('.cms-grabbed')).toHaveCount(1);
    await expectAccessible(page);
    await screenshot(page, `reorder-grab-${theme}`);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Move to…' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectAccessible(page);
    await screenshot(page, `reorder-dialog-${theme}`);
  });
}

test('in German at 320 px: the strings, the announcements and no horizontal scrolling', async ({ page }) => {
  const api = await apiAs();
  const account = await createAccount(api, 'rdde');
  const tag = uniqueTag('rdz');
  const [a] = (await createCategories(api, tag, ['Sehr langer Kategoriename der nicht passt'])) as [number];
  await arrange(api, CATEGORIES, [{ id: a, parent_id: null }], true);
  await page.setViewportSize({ width: 320, height: 720 });
  await signIn(page, `/backend/${CATEGORIES}/reorder`, account);
  await page.locator('details.cms-account summary').click();
  await page.getByLabel('Language').selectOption('de');
  await expect(page.getByRole('button', { name: 'Speichern', exact: true })).toBeVisible();
  await page.locator('details.cms-account summary').click();
  await expect(page.getByRole('heading', { level: 1, name: 'Kategorien anordnen' })).toBeVisible();
  await page.locator('[role="treeitem"]').first().click();
  await page.keyboard.press('Space');
  await expect(status(page)).toContainText('aufgenommen, Position 1 von');
  await page.keyboard.press('ArrowUp');
  await expect(status(page)).toContainText('ist bereits an erster Stelle.');
  await page.keyboard.press('Escape');
  await screenshot(page, 'reorder-de-320');
  await expectAccessible(page);
  const wide = await page.evaluate(() =>
    Array.from(document.querySelectorAll('main *'))
      .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1)
      .map((element) => `${element.localName}.${element.className}`),
  );
  expect(wide).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  await api.dispose();
});

test('a refused save (422) lists each node with the server’s message; lists without a reorder have no link', async ({ page }) => {
  await signIn(page, '/backend/cms/journal/posts');
  await expect(page.getByRole('heading', { level: 1, name: 'Posts' })).toBeVisible();
  await expect(page.locator('main').getByRole('link', { name: 'Reorder', exact: true })).toHaveCount(0);
  await page.route(`**${API}/${CATEGORIES}/reorder`, (route) =>
    route.request().method() === 'POST'
      ? route.fulfill({
          status: 422,
          json: {
            error: {
              code: 'validation_failed',
              message: 'The given data was invalid.',
              details: { 'nodes.1.parent_id': ['The tree may be at most 3 levels deep.'] },
            },
          },
        })
      : route.fallback(),
  );
  await page.goto(`/backend/${CATEGORIES}/reorder`);
  await page.locator('[role="treeitem"]').first().click();
  await page.keyboard.press('Space');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Space');
  await expect(status(page)).toContainText('Dropped');
  // The server names the second node sent: the second row as the order is now.
  const label = (await page.locator('[role="treeitem"]').nth(1).textContent())!.trim();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'The order was not saved:' });
  await expect(alert).toContainText(`${label}: The tree may be at most 3 levels deep.`);
  await expect(alert).toBeFocused();
  await expect(page.getByText('Unsaved order')).toBeVisible();
});
