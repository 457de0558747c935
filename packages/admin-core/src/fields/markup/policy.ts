/**
 * The markup policy of rich text, of raw HTML in markdown and of the markdown preview
 * (docs/security.md, "Markup sanitizing"): DOMPurify's HTML profile (DOMPurify 3.4, its `html`
 * tag and attribute lists), without `<style>`, forms and form controls, and without the `style`,
 * `id` and `name` attributes. `sanitizeHtml` (html.ts) applies it; `SANITIZE_CONFIG` is the same
 * policy as a DOMPurify configuration (the tests compare both).
 */

/** Elements a form is made of: a form in content could post the admin's data elsewhere. */
const FORM_ELEMENTS = ['form', 'input', 'button', 'select', 'option', 'optgroup', 'datalist', 'textarea'] as const;

const FORBIDDEN_TAGS: ReadonlySet<string> = new Set(['style', ...FORM_ELEMENTS]);

/** DOMPurify's HTML profile without the forbidden elements. */
export const ALLOWED_TAGS: ReadonlySet<string> = new Set(
  (
    'a abbr acronym address area article aside audio b bdi bdo big blink blockquote body br button canvas caption center ' +
    'cite code col colgroup content data datalist dd decorator del details dfn dialog dir div dl dt element em fieldset ' +
    'figcaption figure font footer form h1 h2 h3 h4 h5 h6 head header hgroup hr html i img input ins kbd label legend li ' +
    'main map mark marquee menu menuitem meter nav nobr ol optgroup option output p picture pre progress q rp rt ruby s ' +
    'samp search section select shadow slot small source spacer span strike strong style sub summary sup table tbody td ' +
    'template textarea tfoot th thead time tr track tt u ul var video wbr'
  )
    .split(' ')
    .filter((tag) => !FORBIDDEN_TAGS.has(tag)),
);

/**
 * Attributes that are never kept: inline `style` (it can restyle or overlay the whole admin
 * page), `id` and `name` (they create named properties on `window` and `document`, so content
 * could shadow a global the page's scripts read: DOM clobbering).
 */
const FORBIDDEN_ATTRIBUTES = ['style', 'id', 'name'] as const;
const FORBIDDEN_ATTRIBUTE_SET: ReadonlySet<string> = new Set(FORBIDDEN_ATTRIBUTES);

/** DOMPurify's HTML attributes without the forbidden ones; `data-*` and `aria-*` are allowed too. */
const ALLOWED_ATTRIBUTES: ReadonlySet<string> = new Set(
  (
    'accept action align alt autocapitalize autocomplete autopictureinpicture autoplay background bgcolor border capture ' +
    'cellpadding cellspacing checked cite class clear color cols colspan command commandfor controls controlslist coords ' +
    'crossorigin datetime decoding default dir disabled disablepictureinpicture disableremoteplayback download draggable ' +
    'enctype enterkeyhint exportparts face for headers height hidden high href hreflang id inert inputmode integrity ismap ' +
    'kind label lang list loading loop low max maxlength media method min minlength multiple muted name nonce noshade ' +
    'novalidate nowrap open optimum part pattern placeholder playsinline popover popovertarget popovertargetaction poster ' +
    'preload pubdate radiogroup readonly rel required rev reversed role rows rowspan spellcheck scope selected shape size ' +
    'sizes slot span srclang start src srcset step style summary tabindex title translate type usemap valign value width ' +
    'wrap xmlns'
  )
    .split(' ')
    .filter((name) => !FORBIDDEN_ATTRIBUTE_SET.has(name)),
);

/**
 * Elements removed together with everything inside them when they are not allowed (DOMPurify's
 * FORBID_CONTENTS); any other disallowed element is replaced by its content.
 */
export const DROPPED_WITH_CONTENT: ReadonlySet<string> = new Set(
  (
    'annotation-xml audio colgroup desc foreignobject head iframe math mi mn mo ms mtext noembed noframes noscript ' +
    'plaintext script selectedcontent style svg template thead title video xmp'
  ).split(' '),
);

/**
 * The elements of `DROPPED_WITH_CONTENT` the policy never allows: their text is script, style or
 * markup, never prose (the markdown sanitizer removes them inline with their content too).
 */
export const CONTENT_DROPPING_ELEMENTS: ReadonlySet<string> = new Set([
  'script',
  'style',
  'iframe',
  'noscript',
  'noembed',
  'noframes',
  'xmp',
  'title',
  'plaintext',
  'svg',
  'math',
]);

/** Attributes whose value is never a URL (DOMPurify's URI_SAFE_ATTRIBUTES). */
const URI_SAFE_ATTRIBUTES: ReadonlySet<string> = new Set([
  'alt',
  'class',
  'for',
  'label',
  'pattern',
  'placeholder',
  'role',
  'summary',
  'title',
  'value',
  'xmlns',
]);
/** Elements whose `src`/`href` may be a `data:` URL (an image or a media file cannot run it). */
const DATA_URI_TAGS: ReadonlySet<string> = new Set(['audio', 'video', 'img', 'source', 'image', 'track']);

const DATA_ATTRIBUTE = /^data-[-\w.\u00B7-\uFFFF]+$/;
const ARIA_ATTRIBUTE = /^aria-[-\w]+$/;
/** Schemes a URL may use (or none, or a relative URL): DOMPurify's IS_ALLOWED_URI. */
const ALLOWED_URI = /^(?:(?:(?:f|ht)tps?|mailto|tel|callto|sms|cid|xmpp|matrix):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i;
/** What browsers ignore inside a URL's scheme. */
const ATTRIBUTE_WHITESPACE = /[\u0000-\u0020\u00A0\u1680\u180E\u2000-\u2029\u205F\u3000]/g;
/** A value that could close a comment or a raw-text element when serialised elsewhere (mutation XSS). */
const VALUE_BREAKOUT = /((--!?|])>)|<\/(style|script|title|xmp|textarea|noscript|iframe|noembed|noframes)/i;

/**
 * The value an allowed element keeps for an attribute: the value trimmed (except `value`), or
 * undefined when the attribute is removed (DOMPurify's `_sanitizeAttributes` and
 * `_isValidAttribute` for the HTML profile).
 */
export function keptAttributeValue(tag: string, name: string, raw: string): string | undefined {
  const value = name === 'value' ? raw : raw.trim();
  if (VALUE_BREAKOUT.test(value)) return undefined;
  // `for` links elements to each other (only a label's or an output's may).
  if (name === 'patchsrc' || (name === 'for' && tag !== 'label' && tag !== 'output')) return undefined;
  if (DATA_ATTRIBUTE.test(name) || ARIA_ATTRIBUTE.test(name)) return value;
  if (!ALLOWED_ATTRIBUTES.has(name)) return undefined;
  if (URI_SAFE_ATTRIBUTES.has(name)) return value;
  if (ALLOWED_URI.test(value.replace(ATTRIBUTE_WHITESPACE, ''))) return value;
  if ((name === 'src' || name === 'href') && value.startsWith('data:') && DATA_URI_TAGS.has(tag)) return value;
  return value === '' ? value : undefined;
}

/**
 * The policy as a DOMPurify configuration (`DOMPurify.sanitize(html, SANITIZE_CONFIG)` gives what
 * `sanitizeHtml` gives): the tests use DOMPurify as a second opinion on `sanitizeHtml`.
 */
export const SANITIZE_CONFIG = {
  ALLOWED_TAGS: ['#text', ...ALLOWED_TAGS],
  ALLOWED_ATTR: [...ALLOWED_ATTRIBUTES],
  FORBID_TAGS: [...FORBIDDEN_TAGS],
  FORBID_ATTR: [...FORBIDDEN_ATTRIBUTES],
};
