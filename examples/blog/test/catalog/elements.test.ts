import { beforeAll, describe, expect, it } from 'vitest';
import {
  connect,
  descendants,
  event,
  type HTMLElement,
  inputs,
  installDom,
  key,
} from '../../../../packages/admin-core/test/support/dom.ts';

/*
 * The catalog's client elements under happy-dom (protocol v1 of plugin field types and
 * widget fields): <acme-color-picker> names its controls after `label` and locks them when
 * read-only; <acme-price-helper> offers a margin input whose value is the widget's `payload`.
 */

type Element = HTMLElement & Record<string, unknown>;

beforeAll(() =>
  installDom(
    new URL('../../src/plugins/catalog/color/color-picker.js', import.meta.url),
    new URL('../../src/plugins/catalog/price-helper/price-helper.js', import.meta.url),
  ),
);

const enter = () => key('Enter', true);

describe('<acme-color-picker>', () => {
  it('names the colour input and the image input after the field label', () => {
    const picker = connect<Element>('acme-color-picker', { label: 'Colour', uploadUrl: '/up' });
    const [color] = inputs(picker, 'color');
    const [file] = inputs(picker, 'file');
    expect(color!.getAttribute('aria-label')).toBe('Colour');
    expect(file!.getAttribute('aria-label')).toBe('Colour: image');
    picker.label = 'Farbe';
    expect(color!.getAttribute('aria-label')).toBe('Farbe');
    expect(file!.getAttribute('aria-label')).toBe('Farbe: image');
    picker.label = '';
    expect(color!.hasAttribute('aria-label')).toBe(false);
    expect(file!.hasAttribute('aria-label')).toBe(false);
  });

  it('keeps reporting a picked colour; read-only or disabled locks every control', () => {
    const picker = connect<Element>('acme-color-picker', { value: '#112233', typeOptions: { palette: ['#1f6feb'] } });
    const changes: unknown[] = [];
    picker.addEventListener('change', (change) => changes.push((change as unknown as { detail: { value: unknown } }).detail.value));
    const [color] = inputs(picker, 'color');
    color!.value = '#445566';
    color!.dispatchEvent(event('input'));
    expect(changes).toEqual(['#445566']);

    picker.readOnly = true;
    const buttons = descendants(picker).filter((e) => e.localName === 'button');
    expect(buttons.length).toBe(2); // clear and the one swatch
    for (const control of [color!, ...inputs(picker, 'file'), ...buttons])
      expect((control as unknown as { disabled: boolean }).disabled).toBe(true);
    color!.value = '#000000';
    color!.dispatchEvent(event('input'));
    expect(changes).toEqual(['#445566']);
    expect(picker.value).toBe('#445566');

    picker.readOnly = false;
    expect(color!.disabled).toBe(false);
    picker.disabled = true;
    expect(color!.disabled).toBe(true);
    expect(picker.hasAttribute('disabled')).toBe(true);
  });
});

describe('<acme-price-helper>', () => {
  const run = (helper: HTMLElement) => {
    const runs: unknown[] = [];
    helper.addEventListener('cms-widget-run', (run) => {
      expect(run.bubbles).toBe(true);
      runs.push((run as unknown as { detail: unknown }).detail);
    });
    return runs;
  };

  it('offers a labelled margin input, 30 by default, whose value is the payload', () => {
    const helper = connect<Element>('acme-price-helper', { locale: 'en' });
    const label = helper.querySelector('label')!;
    const [input] = inputs(helper, 'text');
    expect(label.textContent).toContain('Margin (%)');
    expect(descendants(label)).toContain(input);
    expect(input!.value).toBe('30');
    expect(helper.payload).toEqual({ margin: '30' });
    input!.value = ' 12.5 ';
    input!.dispatchEvent(event('input'));
    expect(helper.payload).toEqual({ margin: '12.5' });
  });

  it('speaks German for a German locale', () => {
    const helper = connect<Element>('acme-price-helper', { locale: 'de' });
    expect(helper.querySelector('label')!.textContent).toContain('Marge (%)');
    helper.locale = 'en';
    expect(helper.querySelector('label')!.textContent).toContain('Margin (%)');
    helper.locale = 'de-AT';
    expect(helper.querySelector('label')!.textContent).toContain('Marge (%)');
  });

  it('Enter runs the widget with the payload and submits nothing', () => {
    const helper = connect<Element>('acme-price-helper');
    const runs = run(helper);
    const [input] = inputs(helper, 'text');
    input!.value = '45';
    input!.dispatchEvent(event('input'));
    const pressed = enter();
    input!.dispatchEvent(pressed);
    expect(pressed.defaultPrevented).toBe(true);
    expect(runs).toEqual([{ payload: { margin: '45' } }]);
    input!.dispatchEvent(key('a'));
    expect(runs.length).toBe(1);
  });

  it('read-only or disabled: the input cannot be changed and Enter runs nothing', () => {
    const helper = connect<Element>('acme-price-helper', { readOnly: true });
    const runs = run(helper);
    const [input] = inputs(helper, 'text');
    expect(input!.readOnly).toBe(true);
    input!.dispatchEvent(enter());
    expect(runs).toEqual([]);
    helper.readOnly = false;
    helper.disabled = true;
    expect(input!.readOnly).toBe(true);
    helper.disabled = false;
    expect(input!.readOnly).toBe(false);
    input!.dispatchEvent(enter());
    expect(runs).toEqual([{ payload: { margin: '30' } }]);
  });

  it('takes the result and shows nothing of it (the host announces the message)', () => {
    const helper = connect<Element>('acme-price-helper');
    const before = descendants(helper).length;
    const result = { fill: { price: '13.00' }, message: 'Suggested 13.00', data: { cost: '10.0000', margin: '30' } };
    helper.result = result;
    expect(helper.result).toEqual(result);
    expect(descendants(helper).length).toBe(before);
    expect(helper.textContent).not.toContain('Suggested');
  });
});
