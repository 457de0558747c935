import { defineEntity, p } from '@mikro-orm/core';
import { describe, expect, it } from 'vitest';
import { AdminCore } from '../../src/adapter.ts';
import { ConfigError, type ControllerConfig } from '../../src/index.ts';
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
const refusals: Array<[string, Patch, string, RegExp]> = [
  ['partials that are not an object', (c) => (c.partials = ['summary']), 'partials', /must be an object of partial name to partial/],
  [
    'a name that is not a URL segment',
    (c) => (partials(c)['a/b'] = { template: 'x' }),
    'partials.a/b',
    /not a partial name \(one URL segment\)/,
  ],
  ['the name ".."', (c) => (partials(c)['..'] = { template: 'x' }), 'partials...', /not a partial name/],
  [
    'a name over 100 characters',
    (c) => (partials(c)['a'.repeat(101)] = { template: 'x' }),
    `partials.${'a'.repeat(101)}`,
    /not a partial name/,
  ],
  [
    'an unknown partial key',
    (c) => (partials(c).summary.permissions = []),
    'partials.summary.permissions',
    /unknown key "permissions".*template, form, viewModel/,
  ],
  [
    'a partial that is not an object',
    (c) => (partials(c).summary = '<p>x</p>'),
    'partials.summary',
    /must be an object \{ template, form\?, viewModel\? \}/,
  ],
  ['no template', (c) => delete partials(c).summary.template, 'partials.summary.template', /a template is required/],
  ['an empty template', (c) => (partials(c).summary.template = ''), 'partials.summary.template', /a template is required/],
  [
    'a template that is not a string',
    (c) => (partials(c).summary.template = () => '<p>'),
    'partials.summary.template',
    /a template is required/,
  ],
  ['`form` that is not a boolean', (c) => (partials(c).summary.form = 'yes'), 'partials.summary.form', /must be true or false/],
  [
    'a view model that is not a function',
    (c) => (partials(c).header.viewModel = { a: 1 }),
    'partials.header.viewModel',
    /must be a function/,
  ],
  [
    'a template over 64 KiB',
    (c) => (partials(c).summary.template = 'x'.repeat(65537)),
    'partials.summary.template',
    /65537 characters, over 65536/,
  ],
  [
    'a syntax error',
    (c) => (partials(c).summary.template = '{% if record %}<p>'),
    'partials.summary.template',
    /does not parse: tag \{% if record %\} not closed, line:1, col:1/,
  ],
  [
    'an unclosed output',
    (c) => (partials(c).summary.template = '{{ record.title '),
    'partials.summary.template',
    /does not parse: output "\{\{ record.title " not closed/,
  ],
  [
    'an unknown filter',
    (c) => (partials(c).summary.template = '{{ record.title | eval }}'),
    'partials.summary.template',
    /does not parse: undefined filter: eval/,
  ],
  [
    'an unknown tag',
    (c) => (partials(c).summary.template = '{% exec "ls" %}'),
    'partials.summary.template',
    /does not parse: tag "exec" not found/,
  ],
  [
    '`include` (reads a file)',
    (c) => (partials(c).summary.template = '{% include "/etc/passwd" %}'),
    'partials.summary.template',
    /does not parse: tag "include" not found/,
  ],
  [
    '`render` (reads a file)',
    (c) => (partials(c).summary.template = '{% render "secrets" %}'),
    'partials.summary.template',
    /does not parse: tag "render" not found/,
  ],
  [
    '`layout` (reads a file)',
    (c) => (partials(c).summary.template = '{% layout "base" %}x'),
    'partials.summary.template',
    /does not parse: tag "layout" not found/,
  ],
  [
    '`block` (serves layouts only)',
    (c) => (partials(c).summary.template = '{% block a %}x{% endblock %}'),
    'partials.summary.template',
    /does not parse: tag "block" not found/,
  ],
  [
    '`include` inside a `liquid` tag',
    (c) => (partials(c).summary.template = '{% liquid\ninclude "x"\n%}'),
    'partials.summary.template',
    /does not parse: tag "include" not found/,
  ],
  [
    'a form field naming an unregistered partial',
    (c) => (c.form.fields.summary.path = 'summry'),
    'form.fields.summary.path',
    /names the partial "summry", which the controller does not register.*registered: summary, header/,
  ],
  [
    'a form preview naming an unregistered partial',
    (c) => (c.form.preview.headerPartial = 'preview'),
    'form.preview.headerPartial',
    /names the partial "preview"/,
  ],
  [
    'a list header naming an unregistered partial',
    (c) => (c.list.headerPartial = 'head'),
    'list.headerPartial',
    /names the partial "head"/,
  ],
  [
    'a partial field and no partials at all',
    (c) => {
      delete c.partials;
      delete c.list.headerPartial;
      delete c.form.preview;
    },
    'form.fields.summary.path',
    /names the partial "summary", which the controller does not register\. Declare it under `partials`\.$/,
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

  for (const [what, patch, key, problem] of refusals) {
    it(`refuses ${what}, naming the key`, async () => {
      const config = base();
      patch(config as never);
      const error = await start(config);
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as Error).message;
      expect(message).toContain(`plugin "test.partials", controller "test/partials/boxes", key "${key}"`);
      expect(message).toMatch(problem);
    });
  }
});
