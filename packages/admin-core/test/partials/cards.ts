import type { TestAdmin } from '../../../../test/support/app.ts';

/** A card written straight into the table. */
export async function insertCard(
  t: TestAdmin,
  ownerId: number,
  values: { title?: string; body?: string | null; link?: string | null } = {},
): Promise<number> {
  const rows = await t.sql<{ id: number }>(
    'insert into test_partial_cards (title, body, link, owner_id) values (?, ?, ?, ?) returning id',
    [values.title ?? 'A card', values.body ?? null, values.link ?? null, ownerId],
  );
  return Number(rows[0]!.id);
}
