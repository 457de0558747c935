import { defineController, Validation, type ScopeContext } from '@cms/admin-core';
import { Category } from '../entities/index.ts';

const s = (key: string) => `cms.journal::${key}`;

/** Whether `id` is `parentId` or one of its ancestors: such a parent would close a cycle. */
async function closesCycle(em: ScopeContext['em'], id: number, parentId: number): Promise<boolean> {
  // `em.execute` runs in the save's transaction (a second connection could wait on it forever).
  const rows = await em.execute<Array<{ id: number }>>(
    `with recursive up (id, parent_id, depth) as (
       select id, parent_id, 0 from journal_categories where id = ?
       union all select c.id, c.parent_id, up.depth + 1 from journal_categories c join up on c.id = up.parent_id where up.depth < 1000
     ) select id from up where id = ? limit 1`,
    [parentId, id],
  );
  return rows.length > 0;
}

/** `cms/journal/categories`: a tree of categories, reordered by drag and drop (docs/reorder.md). */
export const categoriesController = defineController({
  name: 'categories',
  entity: Category,
  permissions: ['cms.journal.access_categories'],
  list: {
    title: s('categories.title'),
    columns: {
      name: { label: s('categories.fields.name'), searchable: true, sortable: true },
      slug: { label: s('categories.fields.slug'), searchable: true, sortable: true },
      parent: { label: s('categories.fields.parent'), relation: 'parent', select: 'name' },
      sort_order: { label: s('categories.fields.sort_order'), sortable: true },
    },
    defaultSort: { column: 'sort_order', direction: 'asc' },
  },
  form: {
    fields: {
      name: { type: 'text', label: s('categories.fields.name'), required: true, span: 'left' },
      slug: { type: 'text', label: s('categories.fields.slug'), required: true, span: 'right', preset: { field: 'name', type: 'slug' } },
      description: { type: 'textarea', label: s('categories.fields.description') },
      parent: { type: 'relation', label: s('categories.fields.parent'), nameFrom: 'name', emptyOption: s('categories.no_parent') },
    },
  },
  // A tree on `parent_id`, at most three levels deep; the list's default sort shows the order.
  reorder: { title: s('categories.reorder'), parentColumn: 'parent_id', sortColumn: 'sort_order', maxDepth: 3 },
  hooks: {
    // A category may not become its own parent, nor its descendant's child: the tree stays a tree.
    async beforeSave(record, { mode, values, em }) {
      if (mode !== 'update' || typeof values.parent !== 'number') return;
      if (await closesCycle(em, record.id, values.parent)) throw Validation({ parent: ['backend::validation.invalid'] });
    },
  },
});
