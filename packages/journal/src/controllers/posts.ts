import { adminsWithPermission, defineController, NO_ROWS } from '@cms/admin-core';
import { Category, Post } from '../entities/index.ts';
import { postActions, postBulkActions, postToolbarButtons } from './post-actions.ts';
import { postPartials } from './post-partials.ts';
import { MEDIA_UPLOAD_PATH } from '../media/upload.ts';
import type { AddressPolicy } from '../search/address.ts';
import { searchHooks } from '../search/gate.ts';
import { JOURNAL_PERMISSIONS } from '../permissions.ts';
import { s } from '../strings.ts';

const { accessPosts, publishPosts } = JOURNAL_PERMISSIONS;

/**
 * `cms/journal/posts`: the blog's posts (its actions: docs/actions.md, "The example app"). Its
 * hooks and actions reach the search engine under the host's address policy (docs/journal.md,
 * "The engine's address").
 */
export const postsController = (policy: AddressPolicy) =>
  defineController({
    name: 'posts',
    entity: Post,
    permissions: [accessPosts],
    list: {
      title: s('posts.title'),
      columns: {
        title: { label: s('posts.fields.title'), searchable: true, sortable: true },
        slug: { label: s('posts.fields.slug'), searchable: true },
        status: { label: s('posts.fields.status') },
        published_at: { label: s('posts.fields.published_at'), type: 'datetime', sortable: true },
        author: { label: s('posts.fields.author'), relation: 'author', select: 'login' },
        categories: { label: s('posts.fields.categories'), relation: 'categories', select: 'name' },
      },
      defaultSort: { column: 'published_at', direction: 'desc' },
      recordsPerPage: 20,
      perPageOptions: [20, 50, 100],
      filters: {
        status: {
          type: 'group',
          label: s('posts.fields.status'),
          column: 'status',
          options: { draft: s('posts.status.draft'), published: s('posts.status.published'), archived: s('posts.status.archived') },
        },
        category: {
          type: 'scope',
          label: s('posts.fields.categories'),
          modelClass: 'JournalCategory',
          nameFrom: 'name',
          scope: (value) => (/^[1-9]\d{0,9}$/.test(value) ? { categories: { id: Number(value) } } : NO_ROWS),
          scopeOptions: async ({ em }) => {
            const rows = await em.find(Category, {}, { orderBy: { name: 'asc', id: 'asc' }, fields: ['id', 'name'] });
            return rows.map((row) => ({ label: row.name, value: String(row.id) }));
          },
        },
        published_at: { type: 'daterange', label: s('posts.fields.published_at'), column: 'published_at' },
      },
      rowStates: (record) => (record.status === 'archived' ? ['disabled'] : []),
      bulkActions: postBulkActions,
      toolbar: { buttons: postToolbarButtons },
    },
    form: {
      fields: {
        title: { type: 'text', label: s('posts.fields.title'), required: true, span: 'left' },
        slug: { type: 'text', label: s('posts.fields.slug'), required: true, span: 'right', preset: { field: 'title', type: 'slug' } },
        excerpt: { type: 'textarea', label: s('posts.fields.excerpt'), tab: s('posts.tabs.content') },
        // The editor uploads images through the journal's media upload (docs/journal.md, "Media upload").
        content: { type: 'markdown', label: s('posts.fields.content'), tab: s('posts.tabs.content'), uploadRoute: MEDIA_UPLOAD_PATH },
        status: {
          type: 'dropdown',
          label: s('posts.fields.status'),
          options: { draft: s('posts.status.draft'), published: s('posts.status.published'), archived: s('posts.status.archived') },
          default: 'draft',
          tab: s('posts.tabs.manage'),
          // Publishing by a save needs what the `publish` action needs (docs/controllers.md, "Field-level write permissions").
          write: { permissions: [publishPosts], values: ['published'] },
        },
        published_at: {
          type: 'datepicker',
          label: s('posts.fields.published_at'),
          mode: 'datetime',
          tab: s('posts.tabs.manage'),
          write: { permissions: [publishPosts] },
        },
        tags: { type: 'taglist', label: s('posts.fields.tags'), mode: 'array', tab: s('posts.tabs.manage') },
        categories: { type: 'relation', label: s('posts.fields.categories'), nameFrom: 'name', tab: s('posts.tabs.categories') },
        // Authors are admins who may access posts (superusers included): neither offered nor
        // accepted is anyone else, nor a suspended or soft-deleted admin (docs/security.md).
        author: {
          type: 'relation',
          label: s('posts.fields.author'),
          nameFrom: 'login',
          emptyOption: s('posts.no_author'),
          relationScope: () => adminsWithPermission(accessPosts),
          tab: s('posts.tabs.manage'),
        },
        cover_image: {
          type: 'fileupload',
          label: s('posts.fields.cover_image'),
          mode: 'image',
          maxFiles: 1,
          fileTypes: ['jpg', 'jpeg', 'png', 'gif', 'webp'],
          tab: s('posts.tabs.manage'),
        },
        gallery: {
          type: 'fileupload',
          label: s('posts.fields.gallery'),
          mode: 'image',
          maxFiles: 6,
          useCaption: true,
          fileTypes: ['jpg', 'jpeg', 'png', 'gif', 'webp'],
          tab: s('posts.tabs.manage'),
        },
        // Manageable before the first save too: the key of a comment is nullable (docs/relations.md).
        comments: { type: 'relation-manager', label: s('posts.fields.comments'), relation: 'comments', tab: s('posts.tabs.comments') },
        preview: { type: 'partial', path: 'preview', context: ['update', 'preview'] },
      },
    },
    relations: {
      comments: {
        view: {
          list: {
            columns: {
              author_name: { label: s('comments.fields.author_name'), searchable: true, sortable: true },
              body: { label: s('comments.fields.body'), searchable: true },
              is_approved: { label: s('comments.fields.is_approved'), type: 'switch', sortable: true },
              created_at: { label: s('comments.fields.created_at'), type: 'datetime', sortable: true },
            },
            defaultSort: { column: 'created_at', direction: 'desc' },
          },
          toolbarButtons: ['create', 'update', 'delete', 'link', 'unlink'],
        },
        manage: {
          list: {
            columns: {
              author_name: { label: s('comments.fields.author_name'), searchable: true },
              body: { label: s('comments.fields.body'), searchable: true },
            },
          },
        },
        manageForm: {
          fields: {
            author_name: { type: 'text', label: s('comments.fields.author_name'), required: true },
            body: { type: 'textarea', label: s('comments.fields.body'), required: true },
            // The core's yes/no type (docs/field-types.md, "switch and checkbox"): true or false only. No
            // `default`: the column's (`p.boolean().default(false)`) is the form's (docs/controllers.md).
            is_approved: { type: 'switch', label: s('comments.fields.is_approved') },
            // A child form's upload: held under the dialog's X-Child-Session-Key until the comment's save (docs/files.md, "Child forms").
            photo: {
              type: 'fileupload',
              label: s('comments.fields.photo'),
              mode: 'image',
              maxFiles: 1,
              fileTypes: ['jpg', 'jpeg', 'png', 'gif', 'webp'],
            },
          },
        },
      },
    },
    // Saves and deletes keep the search index in step behind the search gate (docs/journal.md, "Search gate").
    hooks: searchHooks(policy),
    actions: postActions(policy),
    partials: postPartials,
    // The built-in record action (docs/actions.md, "Duplicate"): a draft copy under a new slug, with
    // its categories and files; the comments stay with the original.
    duplicate: {
      values: { title: (title) => `${title} (copy)`, slug: (slug) => `${slug}-copy`, status: 'draft', published_at: null },
    },
  });
