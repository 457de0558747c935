import type { PartialConfig, PartialContext, StringTable } from '@cms/admin-core';

/** Features listed by name in the summary; the rest are counted only. */
const LISTED_FEATURES = 5;

const money = (value: unknown, currency: string, locale: string): string | null => {
  if (typeof value !== 'string' || value === '') return null;
  return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(Number(value));
};

/** The stock summary's view model: what a merchant checks at a glance, formatted for the admin's locale. */
function stockSummaryModel({ record, locale }: PartialContext) {
  if (!record) return {};
  const features = Array.isArray(record.features) ? record.features.filter((item): item is string => typeof item === 'string') : [];
  const currency = record.currency === 'USD' ? 'USD' : 'EUR';
  const release = typeof record.release_date === 'string' ? record.release_date : null;
  return {
    product: {
      name: String(record.name ?? ''),
      sku: String(record.sku ?? ''),
      // `price` is always in EUR (its field says so); `cost` is in the product's own currency.
      price: money(record.price, 'EUR', locale),
      cost: money(record.cost, currency, locale),
      feature_count: features.length,
      features: features.slice(0, LISTED_FEATURES),
      more_features: Math.max(0, features.length - LISTED_FEATURES),
      release_date: release,
      release_label: release
        ? new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${release}T00:00:00Z`))
        : null,
      upcoming: release !== null && release > new Date().toISOString().slice(0, 10),
    },
  };
}

const STOCK_SUMMARY_TEMPLATE = `
{%- if product -%}
<dl class="acme-stock-summary">
  <dt>{{ 'acme.catalog::products.sku' | t }}</dt><dd><code>{{ product.sku }}</code></dd>
  <dt>{{ 'acme.catalog::products.price' | t }}</dt><dd>{% if product.price %}<strong>{{ product.price }}</strong>{% else %}{{ 'acme.catalog::partials.stock_summary.no_price' | t }}{% endif %}</dd>
  {%- if product.cost %}
  <dt>{{ 'acme.catalog::products.cost' | t }}</dt><dd>{{ product.cost }}</dd>
  {%- endif %}
  <dt>{{ 'acme.catalog::products.features' | t }}</dt>
  <dd>{{ 'acme.catalog::partials.stock_summary.feature_count' | t: count: product.feature_count }}
    {%- if product.feature_count > 0 %}
    <ul>{% for feature in product.features %}<li>{{ feature }}</li>{% endfor %}</ul>
    {%- if product.more_features > 0 %}<small>{{ 'acme.catalog::partials.stock_summary.more_features' | t: count: product.more_features }}</small>{% endif %}
    {%- endif %}
  </dd>
  <dt>{{ 'acme.catalog::products.release_date' | t }}</dt>
  <dd>{% if product.release_date %}<time datetime="{{ product.release_date }}">{{ product.release_label }}</time>{% if product.upcoming %} <em>{{ 'acme.catalog::partials.stock_summary.upcoming' | t }}</em>{% endif %}{% else %}{{ 'acme.catalog::partials.stock_summary.no_release' | t }}{% endif %}</dd>
</dl>
{%- else -%}
<p class="acme-stock-summary-empty">{{ 'acme.catalog::partials.stock_summary.unsaved' | t }}</p>
{%- endif -%}
`;

/** Products' partials: `stock_summary`, a form partial shown on the update form. */
/** Above the products list (its `headerPartial`): what the two money columns mean. */
const LIST_HEADER_TEMPLATE = `<p class="acme-list-header">{{ 'acme.catalog::partials.list_header.prices' | t }}</p>`;

export const productPartials: Record<string, PartialConfig> = {
  stock_summary: { form: true, template: STOCK_SUMMARY_TEMPLATE, viewModel: stockSummaryModel },
  list_header: { template: LIST_HEADER_TEMPLATE },
};

export const partialStrings: StringTable = {
  en: {
    'partials.stock_summary.feature_count': { one: '{count} feature', other: '{count} features' },
    'partials.stock_summary.more_features': { one: 'and {count} more', other: 'and {count} more' },
    'partials.stock_summary.no_price': 'No price yet',
    'partials.stock_summary.no_release': 'No release date yet',
    'partials.stock_summary.upcoming': 'upcoming',
    'partials.stock_summary.unsaved': 'Save the product to see its stock summary.',
    'partials.list_header.prices': 'Prices are in euros; each product’s cost is in its own currency.',
  },
  de: {
    'partials.stock_summary.feature_count': { one: '{count} Merkmal', other: '{count} Merkmale' },
    'partials.stock_summary.more_features': { one: 'und {count} weiteres', other: 'und {count} weitere' },
    'partials.stock_summary.no_price': 'Noch kein Preis',
    'partials.stock_summary.no_release': 'Noch kein Erscheinungsdatum',
    'partials.stock_summary.upcoming': 'demnächst',
    'partials.stock_summary.unsaved': 'Speichern Sie das Produkt, um die Bestandsübersicht zu sehen.',
    'partials.list_header.prices': 'Preise sind in Euro; die Kosten eines Produkts in seiner eigenen Währung.',
  },
};
