/**
 * Links from a diagnostic code to its entry in the diagnostic catalogue (docs/diagnostics.md):
 * on the web, the catalogue in the project's repository at the release's tag, at the anchor
 * GitHub gives the code's heading (SARIF `helpUri`, read long after the run, on another machine);
 * in an editor, the catalogue shipped beside the bundles at the heading's line (`codeDescription`:
 * works offline, and VS Code opens a `file:` URI at a `#L<line>` fragment, not at a Markdown anchor).
 */

/** The project's public repository (package.json `repository`; a test holds them equal). */
export const REPOSITORY_URL = 'https://github.com/BabelQueue/babelqueue-envelope-tools';

/** The catalogue's path inside the repository and the packages. */
export const CATALOGUE_PATH = 'docs/diagnostics.md';

/** The catalogue of a release on the web: the file at the release's tag (`v<version>`). */
export function catalogueWebUrl(version: string): string {
  return `${REPOSITORY_URL}/blob/v${version}/${CATALOGUE_PATH}`;
}

/**
 * The anchor GitHub gives a heading (github-slugger): the rendered text lower-cased, every
 * character that is not a letter, mark, digit, connector, hyphen or space removed, spaces turned
 * into hyphens; a repeated slug gets `-1`, `-2`, … in document order (`seen` counts them).
 */
export function githubSlug(headingText: string, seen?: Map<string, number>): string {
  const slug = headingText
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
  if (!seen) return slug;
  const count = seen.get(slug);
  seen.set(slug, (count ?? 0) + 1);
  return count === undefined ? slug : `${slug}-${count}`;
}

/** A heading's Markdown as GitHub renders its text: code spans, links and emphasis reduced to their words. */
export function headingText(markdown: string): string {
  return markdown
    .replace(/`([^`]*)`/g, '$1')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|__|\*|_)(\S(?:.*?\S)?)\1/g, '$2')
    .trim();
}

export interface CatalogueHeading {
  /** The heading's text as rendered (for a code's entry, the code). */
  readonly text: string;
  /** 1-based line of the heading in the file. */
  readonly line: number;
  /** The anchor GitHub gives it. */
  readonly anchor: string;
}

/** Every ATX heading of a Markdown file outside fenced code blocks, with its line and GitHub anchor. */
export function catalogueHeadings(markdown: string): CatalogueHeading[] {
  const headings: CatalogueHeading[] = [];
  const seen = new Map<string, number>();
  let fence: string | undefined;
  const lines = markdown.split(/\r?\n/);
  for (const [index, line] of lines.entries()) {
    const opening = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (opening) {
      if (fence === undefined) fence = opening[1];
      else if (opening[1][0] === fence[0] && opening[1].length >= fence.length && line.trim() === opening[1]) fence = undefined;
      continue;
    }
    if (fence !== undefined) continue;
    const heading = /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line);
    if (!heading) continue;
    const text = headingText(heading[1]);
    headings.push({ text, line: index + 1, anchor: githubSlug(text, seen) });
  }
  return headings;
}

/** Each code's entry (a heading whose whole text is the code, in the catalogue's code-entry form "### `code`"). */
export function codeEntries(markdown: string): Map<string, CatalogueHeading> {
  const entries = new Map<string, CatalogueHeading>();
  const lines = markdown.split(/\r?\n/);
  for (const heading of catalogueHeadings(markdown)) {
    if (!/^###[ \t]+`[a-z0-9-]+`[ \t]*$/.test(lines[heading.line - 1]) || entries.has(heading.text)) continue;
    entries.set(heading.text, heading);
  }
  return entries;
}
