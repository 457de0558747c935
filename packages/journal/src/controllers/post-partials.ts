import { partialMarkdown, type PartialConfig, type PartialContext, type StringTable } from '@cms/admin-core';

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
      status_label: t(`cms.journal::posts.status.${status}`),
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
    {%- else %} · <span>{{ 'cms.journal::posts.preview.unpublished' | t }}</span>{% endif %}
  </p>
  {%- if post.excerpt != blank %}
  <p class="journal-preview-excerpt"><em>{{ post.excerpt }}</em></p>
  {%- endif %}
  <div class="journal-preview-content">{{ post.content_html | raw }}</div>
  {%- if post.truncated %}
  <p class="journal-preview-truncated"><small>{{ 'cms.journal::posts.preview.truncated' | t }}</small></p>
  {%- endif %}
</div>
{%- else -%}
<p class="journal-preview-empty">{{ 'cms.journal::posts.preview.unsaved' | t }}</p>
{%- endif -%}
`;

/** Posts' partials (docs/partials.md): `preview`, shown on the update form and the preview screen. */
export const postPartials: Record<string, PartialConfig> = {
  preview: { form: true, template: PREVIEW_TEMPLATE, viewModel: previewModel },
};

export const postPartialStrings: StringTable = {
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
};
