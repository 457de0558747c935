import { defineStrings, partialMarkdown, type PartialConfig, type PartialContext } from '@cms/admin-core';
import { s as journalString } from '../strings.ts';

/** The preview's strings, with typed keys (docs/strings.md, "Typed keys"). */
const strings = defineStrings('cms.journal', {
  en: {
    'posts.preview.unsaved': 'Save the post to see its preview.',
    'posts.preview.unpublished': 'Not published yet',
    'posts.preview.truncated': 'The preview shows the beginning of the content only.',
  },
  de: {
    'posts.preview.unsaved': 'Speichern Sie den Beitrag, um die Vorschau zu sehen.',
    'posts.preview.unpublished': 'Noch nicht veröffentlicht',
    'posts.preview.truncated': 'Die Vorschau zeigt nur den Anfang des Inhalts.',
  },
});
const { s } = strings;
/** The preview's table, merged into the plugin's by `plugin.ts`. */
export const postPartialStrings = strings.table;
/** Keys only the preview's template uses, for the plugin's `codeStrings` (docs/strings.md, "Checked at start-up"). */
export const postPartialCodeStrings = [s('posts.preview.truncated'), s('posts.preview.unpublished'), s('posts.preview.unsaved')];

/** The label of each status a post can have (the column's check constraint lists the same). */
const STATUS_LABELS = {
  draft: journalString('posts.status.draft'),
  published: journalString('posts.status.published'),
  archived: journalString('posts.status.archived'),
} as const;
type PostStatus = keyof typeof STATUS_LABELS;

/** Characters of the excerpt the preview shows (the column is unbounded text). */
const EXCERPT_CHARS = 300;

const shorten = (text: string, max: number) => {
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, max).join('').trimEnd()}…` : text;
};

/** `2024-01-05T10:00:00.000Z` as the admin reads it, in UTC (the value is an instant). */
const publishedLabel = (iso: string, locale: string) =>
  new Intl.DateTimeFormat(locale, {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'UTC',
    timeZoneName: 'short',
  }).format(new Date(iso));

/**
 * The preview's view model: the post as the form shows it, its markdown content rendered to
 * sanitized HTML (the leading blocks that fit the partial's limits), or nothing for a post that
 * is not saved yet (no `id`).
 */
function previewModel({ record, locale, t }: PartialContext) {
  if (!record) return {};
  const status = String(record.status ?? 'draft');
  const publishedAt = typeof record.published_at === 'string' ? record.published_at : null;
  // Room left for the rest of the template: title (255 characters), excerpt, labels, markup.
  const content = partialMarkdown(typeof record.content === 'string' ? record.content : '', {
    outputBytes: 48 * 1024,
    nodes: 1800,
    depth: 28,
  });
  return {
    post: {
      title: String(record.title ?? ''),
      excerpt: typeof record.excerpt === 'string' ? shorten(record.excerpt.trim(), EXCERPT_CHARS) : '',
      status,
      status_label: Object.hasOwn(STATUS_LABELS, status) ? t(STATUS_LABELS[status as PostStatus]) : status,
      published_at: publishedAt,
      published_label: publishedAt ? publishedLabel(publishedAt, locale) : '',
      content_html: content.html,
      truncated: content.truncated,
    },
  };
}

const PREVIEW_TEMPLATE = `
{%- if post -%}
<div class="journal-preview">
  <h2 class="journal-preview-title">{{ post.title }}</h2>
  <p class="journal-preview-meta">
    <span class="journal-preview-status journal-preview-status-{{ post.status }}">{{ post.status_label }}</span>
    {%- if post.published_at %} · <time datetime="{{ post.published_at }}">{{ post.published_label }}</time>
    {%- else %} · <span>{{ '${s('posts.preview.unpublished')}' | t }}</span>{% endif %}
  </p>
  {%- if post.excerpt != blank %}
  <p class="journal-preview-excerpt"><em>{{ post.excerpt }}</em></p>
  {%- endif %}
  <div class="journal-preview-content">{{ post.content_html | raw }}</div>
  {%- if post.truncated %}
  <p class="journal-preview-truncated"><small>{{ '${s('posts.preview.truncated')}' | t }}</small></p>
  {%- endif %}
</div>
{%- else -%}
<p class="journal-preview-empty">{{ '${s('posts.preview.unsaved')}' | t }}</p>
{%- endif -%}
`;

/** Posts' partials (docs/partials.md): `preview`, shown on the update form and the preview screen. */
export const postPartials: Record<string, PartialConfig> = {
  preview: { form: true, template: PREVIEW_TEMPLATE, viewModel: previewModel },
};
