import sharp from 'sharp';
import type { LocalApi } from '@cms/admin-core';
import type { AdminCore } from '@cms/admin-core/adapter';
import { seedJournalDemo, type JournalDemoResult } from '@cms/journal';
import { seedCatalogDemo, type CatalogDemoResult } from './plugins/catalog/demo.ts';

export interface DemoDataResult {
  journal: JournalDemoResult;
  catalog: CatalogDemoResult;
}

/**
 * `CMS_DEMO_DATA=1`: seeds the journal's demo categories, posts and comments and the catalog's
 * demo products and storefront, so that a newcomer sees a populated admin. Runs after the
 * superuser seed: the posts' author is the first live superuser. Each part is idempotent (it adds
 * nothing when its tables already hold content) and runs in its own transaction.
 */
export async function seedDemoData(core: AdminCore): Promise<DemoDataResult> {
  // Through the local API as the system (docs/local-api.md): the forms, hooks and audit log apply.
  const journal = await seedJournalDemo(core.local);
  const catalog = await seedCatalogDemo(core.local);
  if (journal.seeded) await attachDemoImages(core.local);
  return { journal, catalog };
}

/** A plain generated picture (no file shipped with the example): a coloured 800x450 PNG. */
const picture = (background: string) =>
  sharp({ create: { width: 800, height: 450, channels: 3, background } })
    .png()
    .toBuffer();

/** The first demo posts get a cover image and the first one a small gallery, uploaded as the system (docs/local-api.md, "Files"). */
async function attachDemoImages(local: LocalApi): Promise<void> {
  const system = { as: 'system' } as const;
  const posts = (await local.list('cms/journal/posts', { perPage: 100 }, system)).data;
  const first = [...posts].sort((a, b) => Number(a.id) - Number(b.id)).slice(0, 2);
  const colors = ['#1f6feb', '#2da44e', '#f5c518', '#cf222e'];
  for (const [index, post] of first.entries()) {
    const target = { id: Number(post.id) };
    await local.files.upload(
      'cms/journal/posts',
      { ...target, field: 'cover_image', file: { buffer: await picture(colors[index]!), name: 'cover.png' } },
      system,
    );
    if (index > 0) continue;
    for (const [n, color] of colors.slice(2).entries()) {
      const item = await local.files.upload(
        'cms/journal/posts',
        { ...target, field: 'gallery', file: { buffer: await picture(color), name: `gallery-${n + 1}.png` } },
        system,
      );
      await local.files.caption('cms/journal/posts', { ...target, field: 'gallery', fileId: item.id, title: `Picture ${n + 1}` }, system);
    }
  }
}

/** The one log line that says what `seedDemoData` did. */
export function demoLine({ journal, catalog }: DemoDataResult): string {
  if (!journal.seeded && !catalog.seeded) {
    return 'CMS_DEMO_DATA=1: the journal and the catalog already have content; no demo content was added.';
  }
  const added: string[] = [];
  const skipped: string[] = [];
  if (journal.seeded)
    added.push(`${journal.categories} categories, ${journal.posts} posts and ${journal.comments} comments in the journal`);
  else skipped.push('the journal');
  if (catalog.seeded) added.push(`${catalog.products} products and a storefront in the catalog`);
  else skipped.push('the catalog');
  const rest = skipped.length ? `; ${skipped.join(' and ')} already had content and got none` : '';
  return `CMS_DEMO_DATA=1: seeded demo content: ${added.join('; ')}${rest}.`;
}
