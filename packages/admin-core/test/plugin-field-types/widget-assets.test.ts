import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, defineController, definePlugin, type ControllerConfig } from '../../src/index.ts';
import { startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { signIn, type Client } from '../../../../test/support/client.ts';
import { startUpError } from '../controllers/startup-error.ts';
import { assertConfigError } from '../support/config-error.ts';
import { itemsController, LAB_ASSETS, LAB_MANAGE, LabItem, labPlugin } from '../fixtures/field-types.ts';

/*
 * A widget field's own client files (docs/field-types.md, "widget"): `assets` names keys of the
 * controller's plugin's `assets`, checked at start-up; the FormView serves their versioned URLs
 * with those of the plugin field types, in field order, each once.
 */

const HELPERS = 'tfx/lab/helpers';

/** `tfx/lab/helpers`: a widget before a plugin type field; `assets` is the widget's option. */
const helpersController = (assets: unknown = { scripts: ['motto.js', 'stamp.js'], styles: ['lab.css'] }) =>
  defineController({
    name: 'helpers',
    entity: LabItem,
    permissions: [LAB_MANAGE],
    list: { columns: { name: { label: 'Name' } } },
    form: {
      fields: {
        name: { type: 'text', label: 'Name' },
        helper: { type: 'widget', action: 'assist', widget: 'tfx-helper', fill: ['name'], assets: assets as never },
        // No files of its own: adds nothing.
        plain: { type: 'widget', action: 'assist', widget: 'tfx-plain', fill: [] },
        stamp: { type: 'stamp', label: 'Stamp' },
      },
    },
    actions: { widget: { assist: { run: () => ({ fill: { name: 'x' } }) } } },
  } as ControllerConfig);

const withHelpers = (assets?: unknown) => labPlugin({ controllers: [itemsController, helpersController(assets)] });

describe('widget assets in the FormView', () => {
  let t: TestAdmin;
  let su: Client;
  beforeAll(async () => {
    t = await startTestAdmin({ plugins: [withHelpers()] });
    su = await signIn(t, { isSuperuser: true });
  });
  afterAll(() => t.close());

  it('serves the versioned URLs of the files a widget names, in field order, each once', async () => {
    const res = await su.get(`${HELPERS}/schema/form`);
    expect(res.status).toBe(200);
    const url = (file: string) => t.core.registry.assets.url('tfx', 'lab', file);
    expect(url('motto.js')).toMatch(/^\/backend\/assets\/tfx\/lab\/motto\.js\?v=[0-9a-f]+$/);
    // The widget's motto.js and stamp.js, then the stamp type's stamp.js and lab.css again: once each.
    expect(res.body.data.assets).toEqual({ scripts: [url('motto.js'), url('stamp.js')], styles: [url('lab.css')] });
    // The option is the server's: the FormField of the widget is unchanged.
    const helper = (res.body.data.fields as Array<Record<string, unknown>>).find((field) => field.name === 'helper');
    expect(helper).toMatchObject({ type: 'widget', widget: 'tfx-helper', action: 'assist', fill: ['name'] });
    expect(helper).not.toHaveProperty('assets');
    const served = await t.http.get(res.body.data.assets.scripts[0]);
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toMatch(/javascript/);
  });
});

describe('widget assets are checked at start-up', () => {
  const key = (suffix: string) => ({ plugin: 'tfx.lab', controller: HELPERS, key: `form.fields.helper.assets${suffix}` });

  it('refuses a file that is not one of the plugin assets, naming plugin, controller, field and file', async () => {
    const error = assertConfigError(await startUpError([withHelpers({ scripts: ['helper.js'] })]), 'field_option_invalid', key('.scripts'));
    expect(error.message).toContain('plugin "tfx.lab"');
    expect(error.message).toContain(`controller "${HELPERS}"`);
    expect(error.message).toContain('"helper.js" is not one of the plugin\'s assets');
    expect(error.message).toContain('assets');
  });

  it("refuses another plugin's file: the keys are the declaring plugin's", async () => {
    const other = definePlugin({ vendor: 'zed', name: 'kit', assets: { 'helper.css': LAB_ASSETS['lab.css'] } });
    assertConfigError(
      await startUpError([other, withHelpers({ scripts: ['stamp.js'], styles: ['helper.css'] })]),
      'field_option_invalid',
      key('.styles'),
    );
  });

  it.each<[string, unknown, string]>([
    ['a list instead of an object', ['stamp.js'], ''],
    ['an unknown key', { scripts: ['stamp.js'], images: [] }, '.images'],
    ['scripts that are not a list of keys', { scripts: 'stamp.js' }, '.scripts'],
    ['a stylesheet among the scripts', { scripts: ['lab.css'] }, '.scripts'],
    ['a script among the styles', { styles: ['stamp.js'] }, '.styles'],
    ['a file named twice', { scripts: ['stamp.js', 'stamp.js'] }, '.scripts'],
  ])('refuses %s', async (_name, assets, suffix) => {
    assertConfigError(await startUpError([withHelpers(assets)]), 'field_option_invalid', key(suffix));
  });

  it('takes files of the plugin, and no files at all (the start then fails on the absent database only)', async () => {
    for (const assets of [{ scripts: ['stamp.js'], styles: ['lab.css'] }, {}, { scripts: [] }])
      expect(await startUpError([withHelpers(assets)])).not.toBeInstanceOf(ConfigError);
  });
});
