/**
 * A strict reader of the XML the RSS feed writes: elements, attributes, text and character
 * references only. It throws on anything that is not well-formed XML 1.0 (an unclosed or
 * mismatched tag, a bare `&` or `<`, an unknown entity, a character XML cannot hold, a second
 * root), so a test that reads a feed with it has checked the feed is well formed.
 */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** The element's own text, references decoded. */
  text: string;
}

const NAME = '[A-Za-z_][A-Za-z0-9._:-]*';
// XML 1.0 `Char`: tab, newline, carriage return, U+0020..U+D7FF, U+E000..U+FFFD, U+10000..U+10FFFF.
const INVALID_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;
const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(text: string, where: number): string {
  if (/[<]/.test(text)) throw new Error(`"<" in text at ${where}`);
  return text.replace(/&([^;]*);|&/g, (whole, name: string | undefined) => {
    if (name === undefined) throw new Error(`bare "&" at ${where}`);
    if (PREDEFINED[name] !== undefined) return PREDEFINED[name]!;
    const code = /^#x[0-9A-Fa-f]+$/.test(name)
      ? Number.parseInt(name.slice(2), 16)
      : /^#\d+$/.test(name)
        ? Number(name.slice(1))
        : Number.NaN;
    const char = Number.isNaN(code) || code > 0x10ffff ? '' : String.fromCodePoint(code);
    if (char === '' || INVALID_CHAR.test(char)) throw new Error(`bad reference ${whole} at ${where}`);
    return char;
  });
}

export function parseXml(xml: string): XmlElement {
  if (INVALID_CHAR.test(xml)) throw new Error('a character XML cannot hold');
  let rest = xml.replace(/^<\?xml\s+version="1\.0"(\s+encoding="UTF-8")?\s*\?>/, '');
  const offset = () => xml.length - rest.length;
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  const tag = new RegExp(`^<(/?)(${NAME})((?:\\s+${NAME}\\s*=\\s*"[^"<]*")*)\\s*(/?)>`);
  while (rest.length > 0) {
    const lt = rest.indexOf('<');
    const text = lt === -1 ? rest : rest.slice(0, lt);
    if (text !== '') {
      if (stack.length === 0) {
        if (text.trim() !== '') throw new Error(`text outside the root at ${offset()}`);
      } else stack.at(-1)!.text += decode(text, offset());
      rest = rest.slice(text.length);
      continue;
    }
    const match = tag.exec(rest);
    if (!match) throw new Error(`not a tag at ${offset()}: ${rest.slice(0, 30)}`);
    const [whole, closing, name, attributeText, selfClosing] = match;
    if (closing) {
      if (attributeText || selfClosing) throw new Error(`malformed end tag at ${offset()}`);
      const open = stack.pop();
      if (open?.name !== name) throw new Error(`</${name}> closes <${open?.name}> at ${offset()}`);
    } else {
      if (stack.length === 0 && root) throw new Error(`a second root at ${offset()}`);
      const attributes: Record<string, string> = {};
      for (const [, key, value] of attributeText!.matchAll(new RegExp(`(${NAME})\\s*=\\s*"([^"<]*)"`, 'g'))) {
        if (Object.hasOwn(attributes, key!)) throw new Error(`attribute ${key} twice at ${offset()}`);
        attributes[key!] = decode(value!, offset());
      }
      const element: XmlElement = { name: name!, attributes, children: [], text: '' };
      if (stack.length === 0) root = element;
      else stack.at(-1)!.children.push(element);
      if (!selfClosing) stack.push(element);
    }
    rest = rest.slice(whole!.length);
  }
  if (stack.length > 0) throw new Error(`<${stack.at(-1)!.name}> is not closed`);
  if (!root) throw new Error('no root element');
  return root;
}

/** The children of `element` named `name`. */
export const childrenNamed = (element: XmlElement, name: string) => element.children.filter((child) => child.name === name);

/** The text of the one child named `name` (undefined when there is none). */
export const childText = (element: XmlElement, name: string) => childrenNamed(element, name)[0]?.text;
