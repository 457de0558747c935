/**
 * Route paths as the route table writes them: `:name` is one segment, `*name` the rest of the
 * path, `{…}` an optional part (`/api{/*rest}`). Matching ignores case and one trailing slash,
 * and runs on the raw path: the captures keep their percent-encoding, the params are decoded.
 */
export interface PathPattern {
  readonly regexp: RegExp;
  readonly names: readonly string[];
}

export interface PathMatch {
  /** Raw captured text, in the order of the pattern (an unmatched optional part is `undefined`). */
  captures: Array<string | undefined>;
  /** Decoded captures by name (a capture that does not decode stays as it came). */
  params: Record<string, string>;
}

const NAME = /^[A-Za-z_$][\w$]*/;
const escapeText = (text: string) => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');

export function compilePath(path: string): PathPattern {
  const names: string[] = [];
  let source = '';
  for (let i = 0; i < path.length; i++) {
    const char = path[i]!;
    const name = char === ':' || char === '*' ? NAME.exec(path.slice(i + 1))?.[0] : undefined;
    if (name) {
      names.push(name);
      source += char === ':' ? '([^/]+)' : '([^]+)';
      i += name.length;
    } else if (char === '{') source += '(?:';
    else if (char === '}') source += ')?';
    else source += escapeText(char);
  }
  return { regexp: new RegExp(`^(?:${source})(?:/$)?$`, 'i'), names };
}

const decode = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

export function matchPath(pattern: PathPattern, path: string): PathMatch | undefined {
  const found = pattern.regexp.exec(path);
  if (!found) return undefined;
  const captures = found.slice(1);
  const params: Record<string, string> = {};
  pattern.names.forEach((name, index) => {
    const value = captures[index];
    if (value) params[name] = decode(value);
  });
  return { captures, params };
}
