import { fileURLToPath } from 'node:url';
import { type HTMLElement, Window } from 'happy-dom';

/*
 * Custom elements of the core and the example app (yes-no.js, color-picker.js, price-helper.js)
 * under happy-dom, a maintained DOM for Node: `installDom` puts its window's DOM globals in place
 * (once per test file), then the element's script is imported. Their behaviour in a real browser
 * is what the admin application's browser flows check (docs/admin-ui.md, "Tests").
 */

const window = new Window();

export type { HTMLElement };

/** The window's DOM globals the elements' scripts use, then each script (by file URL). */
export async function installDom(...scripts: URL[]): Promise<void> {
  Object.assign(globalThis, {
    window,
    document: window.document,
    HTMLElement: window.HTMLElement,
    customElements: window.customElements,
    Event: window.Event,
    CustomEvent: window.CustomEvent,
    KeyboardEvent: window.KeyboardEvent,
  });
  for (const script of scripts) await import(fileURLToPath(script));
}

/** A new element of a defined tag with these properties set, connected to the document. */
export function connect<E = HTMLElement>(name: string, before: Record<string, unknown> = {}): E & HTMLElement & Record<string, unknown> {
  const element = window.document.createElement(name);
  Object.assign(element, before);
  window.document.body.append(element);
  return element as unknown as E & HTMLElement & Record<string, unknown>;
}

/** Every element below this one. */
export const descendants = (element: HTMLElement): HTMLElement[] => [...element.querySelectorAll('*')] as HTMLElement[];

/** The inputs of a type below this element. */
export const inputs = (element: HTMLElement, type: string) =>
  [...element.querySelectorAll(`input[type="${type}"]`)] as unknown as Array<HTMLElement & Record<string, any>>;

/** A key press event of this window. */
export const key = (name: string, cancelable = false) => new window.KeyboardEvent('keydown', { key: name, cancelable });

/** A plain event of this window. */
export const event = (type: string) => new window.Event(type);
