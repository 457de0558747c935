import { defineController } from '@cms/admin-core';
import { Category } from '../entities/index.ts';
import { JOURNAL_PERMISSIONS } from '../permissions.ts';
import { s } from '../strings.ts';

/** `cms/journal/categories`: a tree of categories, reordered by drag and drop (docs/reorder.md). */
export const categoriesController = defineController({
  name: 'categories',
  entity: Category,
  permissions: [JOURNAL_PERMISSIONS.accessCategories],
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
  // A tree on `parent_id`, at most three levels deep; the list's default sort shows the order. The form's
  // `parent` keeps the same tree: no cycle, no fourth level (docs/reorder.md, "Saves through the form").
  reorder: { title: s('categories.reorder'), parentColumn: 'parent_id', sortColumn: 'sort_order', maxDepth: 3 },
});
