import { defineEntity, p } from '@mikro-orm/core';
import { describe, expect, it } from 'vitest';
import { AdminCore } from '../../src/adapter.ts';
import { ConfigError, type ConfigErrorCode, type ControllerConfig } from '../../src/index.ts';
import { assertConfigError } from '../support/config-error.ts';
import { definePlugin } from '../../src/plugins/define.ts';

/*
 * Start-up checks of partials (docs/partials.md): `AdminCore.create` parses every template and
 * checks every partial name a form or list refers to before the first query (nothing listens at
 * the database URL: a check that reached the database would fail with a connection error).
 */

const Box = defineEntity({
  name: 'StartupPartialBox',
  tableName: 'startup_partial_boxes',
  properties: { id: p.integer().primary(), title: p.string() },
});

const base = (): ControllerConfig => ({
  name: 'boxes',
  entity: Box,
  list: { columns: { title: { label: 'Title' } }, headerPartial: 'header' },
  form: {
    fields: { title: { type: 'text', label: 'Title' }, summary: { type: 'partial', path: 'summary' } },
    preview: { headerPartial: 'summary' },
  },
  partials: {
    summary: { form: true, template: '<p>{{ record.title }}</p>' },
    header: { template: '<p>{{ "test.partials::x" | t }}</p>', viewModel: () => ({}) },
  },
});

/** Passing every check means reaching the database, which is not there. */
const accepted = (error: unknown) => {
  expect(error).not.toBeInstanceOf(ConfigError);
  expect(String(error)).toMatch(/ECONNREFUSED/);
};

async function start(controller: ControllerConfig): Promise<unknown> {
  const plugin = definePlugin({ vendor: 'test', name: 'partials', entities: [Box], controllers: [controller] });
  try {
    const core = await AdminCore.create({
      secret: 'x'.repeat(40),
      database: { url: 'postgres://postgres@127.0.0.1:1/none' },
      logger: { info() {}, warn() {}, error() {} },
      plugins: [plugin],
    });
    await core.close();
    return undefined;
  } catch (error) {
    return error;
  }
}

type Patch = (c: Record<string, any>) => void;
const partials = (c: Record<string, any>) => c.partials as Record<string, any>;

/** [what, patch, key named, problem]: each refusal names plugin, controller and key. */
const refusals: Array<[string, Patch, string, ConfigErrorCode]> = [
  ['partials that are not an object', (c) => (c.partials = ['summary']), 'partials', 'controller_value_invalid'],
  ['a name that is not a URL segment', (c) => (partials(c)['a/b'] = { template: 'x' }), 'partials.a/b', 'partial_name_invalid'],
  ['the name ".."', (c) => (partials(c)['..'] = { template: 'x' }), 'partials...', 'partial_name_invalid'],
  [
    'a name over 100 characters',
    (c) => (partials(c)['a'.repeat(101)] = { template: 'x' }),
    `partials.${'a'.repeat(101)}`,
    'partial_name_invalid',
  ],
  ['an unknown partial key', (c) => (partials(c).summary.permissions = []), 'partials.summary.permissions', 'controller_key_unknown'],
  ['a partial that is not an object', (c) => (partials(c).summary = '<p>x</p>'), 'partials.summary', 'controller_value_invalid'],
  ['no template', (c) => delete partials(c).summary.template, 'partials.summary.template', 'controller_value_invalid'],
  ['an empty template', (c) => (partials(c).summary.template = ''), 'partials.summary.template', 'controller_value_invalid'],
  [
    'a template that is not a string',
    (c) => (partials(c).summary.template = () => '<p>'),
    'partials.summary.template',
    'controller_value_invalid',
  ],
  ['`form` that is not a boolean', (c) => (partials(c).summary.form = 'yes'), 'partials.summary.form', 'controller_value_invalid'],
  [
    'a view model that is not a function',
    (c) => (partials(c).header.viewModel = { a: 1 }),
    'partials.header.viewModel',
    'controller_value_invalid',
  ],
  [
    'a template over 64 KiB',
    (c) => (partials(c).summary.template = 'x'.repeat(65537)),
    'partials.summary.template',
    'partial_template_too_long',
  ],
  ['a syntax error', (c) => (partials(c).summary.template = '{% if record %}<p>'), 'partials.summary.template', 'partial_template_invalid'],
  [
    'an unclosed output',
    (c) => (partials(c).summary.template = '{{ record.title '),
    'partials.summary.template',
    'partial_template_invalid',
  ],
  [
    'an unknown filter',
    (c) => (partials(c).summary.template = '{{ record.title | eval }}'),
    'partials.summary.template',
    'partial_template_invalid',
  ],
  ['an unknown tag', (c) => (partials(c).summary.template = '{% exec "ls" %}'), 'partials.summary.template', 'partial_template_invalid'],
  [
    '`include` (reads a file)',
    (c) => (partials(c).summary.template = '{% include "/etc/passwd" %}'),
    'partials.summary.template',
    'partial_template_invalid',
  ],
  [
    '`render` (reads a file)',
    (c) => (partials(c).summary.template = '{% render "secrets" %}'),
    'partials.summary.template',
    'partial_template_invalid',
  ],
  [
    '`layout` (reads a file)',
    (c) => (partials(c).summary.template = '{% layout "base" %}x'),
    'partials.summary.template',
    'partial_template_invalid',
  ],
  [
    '`block` (serves layouts only)',
    (c) => (partials(c).summary.template = '{% block a %}x{% endblock %}'),
    'partials.summary.template',
    'partial_template_invalid',
  ],
  [
    '`include` inside a `liquid` tag',
    (c) => (partials(c).summary.template = '{% liquid\ninclude "x"\n%}'),
    'partials.summary.template',
    'partial_template_invalid',
  ],
  [
    'a form field naming an unregistered partial',
    (c) => (c.form.fields.summary.path = 'summry'),
    'form.fields.summary.path',
    'partial_unknown',
  ],
  [
    'a form preview naming an unregistered partial',
    (c) => (c.form.preview.headerPartial = 'preview'),
    'form.preview.headerPartial',
    'partial_unknown',
  ],
  ['a list header naming an unregistered partial', (c) => (c.list.headerPartial = 'head'), 'list.headerPartial', 'partial_unknown'],
  [
    'a partial field and no partials at all',
    (c) => {
      delete c.partials;
      delete c.list.headerPartial;
      delete c.form.preview;
    },
    'form.fields.summary.path',
    'partial_unknown',
  ],
];

describe('start-up checks of partials', () => {
  it('accepts the reference configuration', async () => {
    accepted(await start(base()));
  });

  it('accepts every standard tag but the file ones, standard filters, `t`, and names with dots and dashes', async () => {
    const config = base();
    partials(config as never)['stock-summary.v2'] = {
      template: [
        '{% assign a = 1 %}{% capture b %}x{% endcapture %}{% case a %}{% when 1 %}one{% endcase %}{% comment %}c{% endcomment %}',
        '{% increment n %}{% decrement n %}{% cycle "x", "y" %}{% unless a %}u{% endunless %}{% raw %}{{ r }}{% endraw %}',
        '{% for i in (1..3) %}{% if i == 2 %}{% break %}{% endif %}{% continue %}{% endfor %}{% tablerow i in (1..2) %}{{ i }}{% endtablerow %}',
        '{% echo a %}{% # inline comment %}{{ "x" | upcase | append: "y" | escape | raw }}{{ 3 | plus: 4 }}{{ "2024-01-01" | date: "%Y" }}',
        '{{ list | map: "a" | join: ", " }}{{ "k" | t: count: 2 }}',
      ].join(''),
    };
    accepted(await start(config));
  });

  for (const [what, patch, key, code] of refusals) {
    it(`refuses ${what}, naming the key`, async () => {
      const config = base();
      patch(config as never);
      assertConfigError(await start(config), code, { plugin: 'test.partials', controller: 'test/partials/boxes', key });
    });
  }
});
