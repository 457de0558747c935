import { defineEntity, p } from '@mikro-orm/core';
import { defineController, definePlugin, Migration } from '../index.ts';

/*
 * `test/partials`: cards owned by the admin who wrote them (the form scope hides other admins'
 * cards), with partials a plugin author could write, and some no author should: `raw` outputs the
 * record's body unescaped (so that the allowlist and the limits face whatever a record holds),
 * `reach` tries to read outside its view model, `bad_model` returns a class instance.
 */

export const Card = defineEntity({
  name: 'TestPartialCard',
  tableName: 'test_partial_cards',
  properties: {
    id: p.integer().primary(),
    title: p.string().length(200),
    body: p.text().nullable(),
    link: p.string().length(500).nullable(),
    owner_id: p.integer(),
  },
});

class PartialsInit extends Migration {
  override up(): void {
    this.addSql(
      'create table test_partial_cards (id serial primary key, title varchar(200) not null, body text null, link varchar(500) null, owner_id int not null)',
    );
  }
}

export const CARDS = 'test/partials/cards';
export const CARDS_PERMISSION = 'test.partials.cards';
const mine = ({ principal }: { principal: { admin: { isSuperuser: boolean; id: number } } }) =>
  principal.admin.isSuperuser ? undefined : { owner_id: principal.admin.id };

class Secret {
  code = 'hidden';
}

export const cardsController = defineController({
  name: 'cards',
  entity: Card,
  permissions: [CARDS_PERMISSION],
  scopes: { list: mine, form: mine },
  list: { columns: { title: { label: 'Title', searchable: true } }, headerPartial: 'list_header' },
  form: {
    fields: {
      title: { type: 'text', label: 'Title', required: true },
      body: { type: 'textarea', label: 'Body' },
      link: { type: 'text', label: 'Link' },
      summary: { type: 'partial', path: 'card', context: 'update' },
    },
    preview: { headerPartial: 'card' },
  },
  hooks: {
    beforeSave(record, { principal, mode }) {
      if (mode === 'create') (record as { owner_id: number }).owner_id = principal.admin.id;
    },
  },
  partials: {
    // The default view model: `{ record, labels }` with an id, else `{}`.
    card: {
      form: true,
      template: `{% if record %}<div class="card"><h3>{{ record.title }}</h3><p><a href="{{ record.link }}" title="{{ record.title }}">{{ 'test.partials::open' | t }}</a></p></div>{% else %}<p>{{ 'test.partials::unsaved' | t }}</p>{% endif %}`,
    },
    raw: { form: true, template: '{{ record.body | raw }}' },
    list_header: {
      template: `<p class="header">{{ 'test.partials::count' | t: count: count }} <strong>{{ login }}</strong></p>`,
      viewModel: async ({ principal, em }) => ({
        login: principal.admin.login,
        count: Number(((await em.execute('select count(*)::int as n from test_partial_cards')) as Array<{ n: number }>)[0]!.n),
      }),
    },
    reach: {
      template: [
        '{{ item.constructor }}',
        '{{ item.__proto__ }}',
        '{{ item["__proto__"] }}',
        '{{ item.toString }}',
        '{{ item.hasOwnProperty }}',
        '{{ item.valueOf }}',
        '{{ text.constructor }}',
        '{{ text.constructor.constructor }}',
        '{{ list.constructor }}',
        '{{ list.push }}',
        '{{ constructor }}',
        '{{ __proto__ }}',
        '{{ process }}',
        '{{ global }}',
        '{{ globalThis }}',
        '{{ require }}',
        '{{ this }}',
        '{{ item | map: "constructor" }}',
        '{{ list | map: "constructor" }}',
        '{{ list | where: "constructor" }}',
        '{{ list | map: "__proto__" | first }}',
        '{{ text | split: "" | map: "constructor" }}',
        '{{ item.nested.constructor }}',
        '{{ item.fn }}',
        '{{ item.secret }}',
      ]
        .map((probe) => `<span>${probe}</span>`)
        .join(''),
      viewModel: () => ({ item: { a: 'x', nested: { b: 1 } }, text: 'abc', list: ['a', 'b'] }),
    },
    bad_model: { template: '{{ secret.code }}', viewModel: () => ({ secret: new Secret() }) },
    // Work bounds of the engine: output, allocations, time.
    greedy: { template: '{% for i in (1..100000) %}.{% endfor %}' },
    hungry: { template: '{% for i in (1..10000000) %}{% endfor %}' },
    slow: {
      template:
        '{% for i in (1..1999) %}{% for j in (1..1999) %}{% if j > i %}{% assign k = j | plus: i %}{% endif %}{% endfor %}{% endfor %}',
    },
  },
});

export const partialsPlugin = definePlugin({
  vendor: 'test',
  name: 'partials',
  permissions: [{ code: CARDS_PERMISSION, label: 'Cards' }],
  entities: [Card],
  migrations: [{ name: 'test.partials/0001-init', class: PartialsInit }],
  controllers: [cardsController],
  strings: {
    en: { open: 'Open', unsaved: 'Not saved yet', count: { one: '{count} card', other: '{count} cards' } },
    de: { open: 'Öffnen', unsaved: 'Noch nicht gespeichert', count: { one: '{count} Karte', other: '{count} Karten' } },
  },
});
