import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * The docs stay true to the code (docs/architecture.md, "Tests"): every `docs/<page>.md` a source
 * file cites exists, with the section it quotes (`docs/auth.md, "Session cache"`), and every folder
 * of the core's sources has its row in the architecture table.
 */

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const DOCS = join(ROOT, 'docs');

interface Citation {
  page: string;
  /** The quoted section, comment markers and line breaks folded into single spaces, code marks dropped. */
  section?: string;
  line: number;
}

/**
 * Citations in a source text: `docs/<page>.md`, optionally followed by `, "Section"` (which may
 * wrap onto the next comment line). Matched in the whole text, so a message that names a page is
 * held to the same rule as a comment.
 */
function findCitations(text: string): Citation[] {
  const found: Citation[] = [];
  for (const match of text.matchAll(/docs\/([\w-]+)\.md(?:,\s*"([^"]+)")?/g)) {
    const section = match[2]
      ?.replace(/\s*\n\s*(?:\*(?!\/)|\/\/)?\s*/g, ' ')
      .replaceAll('`', '')
      .trim();
    found.push({ page: match[1]!, section, line: text.slice(0, match.index).split('\n').length });
  }
  return found;
}

/** A page's headings as a citation quotes them: code marks dropped; `Uploads: POST …` is also `Uploads`. */
function headingsOf(markdown: string): Set<string> {
  const headings = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.+?)\s*$/.exec(line);
    if (!heading) continue;
    const text = heading[1]!.replaceAll('`', '');
    headings.add(text);
    if (text.includes(': ')) headings.add(text.slice(0, text.indexOf(': ')));
  }
  return headings;
}

/** What is wrong with a citation, given the docs folder's pages (name to markdown); undefined when it holds. */
function citationProblem(citation: Citation, pages: ReadonlyMap<string, string>): string | undefined {
  const markdown = pages.get(citation.page);
  if (markdown === undefined) return `docs/${citation.page}.md does not exist`;
  if (citation.section !== undefined && !headingsOf(markdown).has(citation.section))
    return `docs/${citation.page}.md has no heading "${citation.section}"`;
  return undefined;
}

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return /\.(?:ts|js|mjs|cjs|css|html)$/.test(entry.name) ? [path] : [];
  });
}

const docsPages = (): Map<string, string> =>
  new Map(
    readdirSync(DOCS)
      .filter((name) => name.endsWith('.md'))
      .map((name) => [name.slice(0, -3), readFileSync(join(DOCS, name), 'utf8')]),
  );

/** Folders holding at least one file (git keeps no empty folder). */
const folders = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && sourceFiles(join(dir, entry.name)).length > 0)
    .map((entry) => entry.name);

/**
 * The folders the architecture table names: `errors/` is a folder; `behaviors/list`, `form`, …
 * in one cell are `behaviors/list`, `behaviors/form`, …; files (`core.ts`) are left out.
 */
function tableFolders(architecture: string): Set<string> {
  const start = architecture.indexOf('## Folders of `packages/admin-core/src`');
  const end = architecture.indexOf('\n## ', start + 1);
  const named = new Set<string>();
  for (const row of architecture.slice(start, end).split('\n')) {
    const cell = /^\|([^|]+)\|/.exec(row)?.[1];
    if (!cell) continue;
    let parent = '';
    for (const [, name] of cell.matchAll(/`([^`]+)`/g)) {
      if (/\.\w+$/.test(name!)) continue;
      const trimmed = name!.replace(/\/$/, '');
      if (trimmed.includes('/')) {
        parent = trimmed.slice(0, trimmed.lastIndexOf('/') + 1);
        named.add(parent.slice(0, -1));
      }
      named.add(trimmed.includes('/') || name!.endsWith('/') ? trimmed : parent + trimmed);
    }
  }
  return named;
}

describe('the matcher', () => {
  const pages = new Map([['auth', '# Auth\n\n## Session cache\n\n```md\n## Not a heading\n```\n\n### Uploads: `POST /x`\n']]);
  const problems = (text: string) =>
    findCitations(text)
      .map((citation) => citationProblem(citation, pages))
      .filter(Boolean);

  it('accepts a page, a quoted section, one wrapped over two comment lines, and a heading cited up to its colon', () => {
    expect(
      problems(
        '// docs/auth.md\n// (docs/auth.md, "Session cache")\n/* docs/auth.md, "Session\n * cache" */ docs/auth.md, "Uploads" docs/auth.md, "`Uploads`"',
      ),
    ).toEqual([]);
  });

  it('refuses a missing page, a missing section and a heading inside a code block', () => {
    expect(problems('/** see docs/nope.md */')).toEqual(['docs/nope.md does not exist']);
    expect(problems('// docs/auth.md, "Sessions"')).toEqual(['docs/auth.md has no heading "Sessions"']);
    expect(problems('// docs/auth.md, "Not a heading"')).toEqual(['docs/auth.md has no heading "Not a heading"']);
  });

  it('reads the folders of a table cell', () => {
    const table =
      '## Folders of `packages/admin-core/src`\n\n| folder | what |\n| --- | --- |\n| `errors/` | … |\n| `behaviors/list`, `form` | … |\n| `core.ts` | … |\n\n## Next\n';
    expect([...tableFolders(table)].sort()).toEqual(['behaviors', 'behaviors/form', 'behaviors/list', 'errors']);
  });
});

describe('docs citations in the sources', () => {
  it('name pages and sections that exist', () => {
    const pages = docsPages();
    // `examples/` may be absent: the packages' tests run without the example app (docs/architecture.md, "Tests").
    const roots = ['packages', 'examples']
      .filter((group) => existsSync(join(ROOT, group)))
      .flatMap((group) =>
        readdirSync(join(ROOT, group), { withFileTypes: true })
          .filter((entry) => entry.isDirectory())
          .map((entry) => join(ROOT, group, entry.name, 'src')),
      );
    const wrong: string[] = [];
    let count = 0;
    for (const file of roots.flatMap(sourceFiles)) {
      for (const citation of findCitations(readFileSync(file, 'utf8'))) {
        count += 1;
        const problem = citationProblem(citation, pages);
        if (problem) wrong.push(`${relative(ROOT, file)}:${citation.line}: ${problem}`);
      }
    }
    expect(count).toBeGreaterThan(100);
    expect(wrong).toEqual([]);
  });

  it('leave no folder of the core out of the architecture table', () => {
    const src = join(ROOT, 'packages/admin-core/src');
    const named = tableFolders(readFileSync(join(DOCS, 'architecture.md'), 'utf8'));
    const actual = [...folders(src), ...folders(join(src, 'behaviors')).map((name) => `behaviors/${name}`)];
    expect(actual.filter((folder) => !named.has(folder))).toEqual([]);
  });
});
