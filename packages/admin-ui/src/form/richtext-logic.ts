/**
 * The pure parts of the rich-text and Markdown controls (docs/field-types.md, "richeditor and
 * markdown"): no DOM and no Lit, so they are unit-tested on their own.
 */

/** A field's value as the text a control shows: a string as it is, anything else (null, absent) empty. */
export function textOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/**
 * The editor's HTML as the field's value: Tiptap serialises an empty document as one empty
 * paragraph, which is "nothing written", the same as the empty value a new record starts with.
 */
export function editorHtml(html: string): string {
  return /^\s*(<p>\s*<\/p>\s*)*$/.test(html) ? '' : html;
}

/**
 * The item a key moves the focus to in a row of items — a toolbar's buttons or a tab list
 * (WAI-ARIA APG "Toolbar" and "Tabs"): the arrows step and wrap, Home and End jump; in a
 * right-to-left row the left arrow is "next". Any other key answers `undefined`.
 */
export function rovingIndex(key: string, index: number, length: number, rtl = false): number | undefined {
  if (length <= 0) return undefined;
  const next = rtl ? 'ArrowLeft' : 'ArrowRight';
  const previous = rtl ? 'ArrowRight' : 'ArrowLeft';
  switch (key) {
    case next:
      return (index + 1) % length;
    case previous:
      return (index - 1 + length) % length;
    case 'Home':
      return 0;
    case 'End':
      return length - 1;
    default:
      return undefined;
  }
}

/**
 * What a link's address typed into the link box becomes: `''` removes the link; `undefined` is
 * refused. Kept: a relative address (`/about`, `#top`, `page.html`), `http:`, `https:` and
 * `mailto:` — the URLs the markup policy keeps (docs/partials.md, "Allowlists"). A bare host
 * (`example.com/page`) gets `https://`, a bare email address `mailto:`. Controls and spaces are removed first, as browsers do, so
 * `java\tscript:` is seen for what it is.
 */
export function linkHref(input: string): string | undefined {
  // Leading and trailing controls and spaces go; tabs and newlines anywhere are ignored by URL parsers.
  const value = input.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\n\r]/g, '');
  if (value === '') return '';
  // Any other control or invisible character near a scheme hides what the address is.
  if (/[\u0000-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufffd]/.test(value)) return undefined;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value);
  if (scheme) {
    const name = scheme[1]!.toLowerCase();
    if (name !== 'http' && name !== 'https' && name !== 'mailto') return undefined;
    if (/\s/.test(value)) return undefined;
    return value;
  }
  if (/\s/.test(value)) return undefined;
  if (/^([/?#.]|\.\.)/.test(value)) return value;
  if (/^[^@/?#:]+@[^@/?#:]+\.[a-z]{2,}$/i.test(value)) return `mailto:${value}`;
  // `example.com/page`: a host with a dot and no scheme is meant as a web address (`page.html` is a page).
  const host = /^[^/?#:@]+\.([a-z]{2,})([/?#:]|$)/i.exec(value);
  if (host && !/^(html?|php|aspx?|jsp|pdf)$/i.test(host[1]!)) return `https://${value}`;
  return value;
}
