import { beforeAll, describe, expect, it } from 'vitest';
import { connect, event, installDom, type HTMLElement } from '../support/dom.ts';

/*
 * The client elements <cms-switch> and <cms-checkbox> (src/fields/yes-no/yes-no.js) under
 * happy-dom: protocol v1's `label` names the checkbox, `readOnly` locks it like `disabled`.
 */

type YesNo = HTMLElement & { value: boolean | null; label: string; readOnly: boolean; disabled: boolean };

beforeAll(() => installDom(new URL('../../src/fields/yes-no/yes-no.js', import.meta.url)));

const box = (element: HTMLElement) => element.querySelector('input') as unknown as Record<string, any> & HTMLElement;

describe('<cms-switch> and <cms-checkbox>', () => {
  it('builds a checkbox (a switch for <cms-switch>) that reports changes as booleans', () => {
    const element = connect<YesNo>('cms-switch', { value: true });
    const input = box(element);
    expect(input.type).toBe('checkbox');
    expect(input.getAttribute('role')).toBe('switch');
    expect(input.checked).toBe(true);
    const changes: unknown[] = [];
    element.addEventListener('change', (change) => changes.push((change as unknown as { detail: { value: unknown } }).detail.value));
    input.checked = false;
    input.dispatchEvent(event('change'));
    expect(changes).toEqual([false]);
    expect(element.value).toBe(false);
  });

  it('gives the checkbox the field label as its accessible name', () => {
    // Set before the element is connected, the label is applied once it is.
    const element = connect<YesNo>('cms-checkbox', { label: 'Published' });
    expect(box(element).getAttribute('aria-label')).toBe('Published');
    element.label = 'Veröffentlicht';
    expect(box(element).getAttribute('aria-label')).toBe('Veröffentlicht');
    element.label = '';
    expect(box(element).hasAttribute('aria-label')).toBe(false);
    // Without a label the checkbox has no name of its own (the host's <label> may give one).
    expect(box(connect<YesNo>('cms-switch')).hasAttribute('aria-label')).toBe(false);
  });

  it('read-only and disabled each lock the checkbox; a nullable value without one is indeterminate', () => {
    const element = connect<YesNo>('cms-checkbox', { value: null });
    expect(box(element).disabled).toBe(false);
    expect(box(element).indeterminate).toBe(true);
    element.readOnly = true;
    expect(box(element).disabled).toBe(true);
    expect(element.readOnly).toBe(true);
    element.readOnly = false;
    expect(box(element).disabled).toBe(false);
    element.disabled = true;
    expect(box(element).disabled).toBe(true);
    expect(element.hasAttribute('disabled')).toBe(true);
  });
});
