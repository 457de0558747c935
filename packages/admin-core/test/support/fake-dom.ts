/*
 * A small stand-in for the browser DOM, enough to run the core's and the example app's custom
 * elements (yes-no.js, color-picker.js, price-helper.js) under Node: elements with attributes,
 * classes, children and events, `document.createElement` and `customElements`. No layout, no
 * event bubbling through parents: a test listens on the element it drives. Install it before the
 * element's script is imported; `connect` runs the element's `connectedCallback`.
 */

let pendingName = '';

export class FakeElement extends EventTarget {
  readonly localName: string;
  readonly attributes = new Map<string, string>();
  readonly children: Array<FakeElement | string> = [];
  readonly classList = {
    names: new Set<string>(),
    add: (...names: string[]) => names.forEach((name) => this.classList.names.add(name)),
    contains: (name: string) => this.classList.names.has(name),
  };
  readonly style = { props: new Map<string, string>(), setProperty: (name: string, value: string) => this.style.props.set(name, value) };
  #text = '';
  [key: string]: unknown;

  constructor() {
    super();
    this.localName = pendingName;
  }

  get className(): string {
    return [...this.classList.names].join(' ');
  }
  set className(value: string) {
    this.classList.names = new Set(value.split(/\s+/).filter(Boolean));
  }
  get textContent(): string {
    return this.#text + this.children.map((child) => (typeof child === 'string' ? child : child.textContent)).join('');
  }
  set textContent(value: string) {
    this.children.length = 0;
    this.#text = String(value);
  }
  setAttribute(name: string, value: string): void {
    this.attributes.set(name, String(value));
  }
  getAttribute(name: string): string | null {
    return this.attributes.get(name) ?? null;
  }
  hasAttribute(name: string): boolean {
    return this.attributes.has(name);
  }
  removeAttribute(name: string): void {
    this.attributes.delete(name);
  }
  toggleAttribute(name: string, force?: boolean): boolean {
    const on = force ?? !this.attributes.has(name);
    if (on) this.attributes.set(name, '');
    else this.attributes.delete(name);
    return on;
  }
  append(...nodes: Array<FakeElement | string>): void {
    this.children.push(...nodes);
  }
  replaceChildren(...nodes: Array<FakeElement | string>): void {
    this.#text = '';
    this.children.splice(0, this.children.length, ...nodes);
  }
  /** Every element below this one, depth first. */
  descendants(): FakeElement[] {
    return this.children.flatMap((child) => (typeof child === 'string' ? [] : [child, ...child.descendants()]));
  }
  /** The first descendant with this tag name. */
  find(tag: string): FakeElement | undefined {
    return this.descendants().find((element) => element.localName === tag);
  }
}

const registry = new Map<string, new () => FakeElement>();

const create = <E extends FakeElement = FakeElement>(name: string): E => {
  pendingName = name;
  try {
    return new (registry.get(name) ?? FakeElement)() as E;
  } finally {
    pendingName = '';
  }
};

/** Sets `HTMLElement`, `document` and `customElements` on the global object (once). */
export function installFakeDom(): void {
  const scope = globalThis as Record<string, unknown>;
  if (scope.customElements) return;
  scope.HTMLElement = FakeElement;
  scope.document = { createElement: create };
  scope.customElements = {
    get: (name: string) => registry.get(name),
    define: (name: string, element: new () => FakeElement) => {
      if (registry.has(name)) throw new Error(`"${name}" is already defined`);
      registry.set(name, element);
    },
  };
}

/** A new element of a defined tag, connected (its `connectedCallback` has run). */
export function connect<E extends FakeElement = FakeElement>(name: string, before: Record<string, unknown> = {}): E {
  const element = create<E>(name);
  Object.assign(element, before);
  (element as unknown as { connectedCallback?(): void }).connectedCallback?.();
  return element;
}
