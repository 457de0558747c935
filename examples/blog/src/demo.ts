import sharp from 'sharp';
import { attachFile } from '@cms/admin-core';
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
  const journal = await seedJournalDemo(core.db.orm.em.fork());
  const catalog = await seedCatalogDemo(core.db.orm.em.fork());
  if (journal.seeded) await attachDemoImages(core);
  return { journal, catalog };
}

/** A plain generated picture (no file shipped with the example): a coloured 800x450 PNG. */
const picture = (background: string) =>
  sharp({ create: { width: 800, height: 450, channels: 3, background } })
    .png()
    .toBuffer();

/** The first demo posts get a cover image and the first one a small gallery (docs/files.md, "Attaching from code"). */
async function attachDemoImages(core: AdminCore): Promise<void> {
  const posts = await core.em().execute<Array<{ id: number }>>('select id from journal_posts order by id limit 2');
  const colors = ['#1f6feb', '#2da44e', '#f5c518', '#cf222e'];
  for (const [index, post] of posts.entries()) {
    const recordId = Number(post.id);
    await attachFile(core, {
      controller: 'cms/journal/posts',
      field: 'cover_image',
      recordId,
      data: await picture(colors[index]!),
      fileName: 'cover.png',
    });
    if (index > 0) continue;
    for (const [n, color] of colors.slice(2).entries()) {
      await attachFile(core, {
        controller: 'cms/journal/posts',
        field: 'gallery',
        recordId,
        data: await picture(color),
        fileName: `gallery-${n + 1}.png`,
        title: `Picture ${n + 1}`,
      });
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
