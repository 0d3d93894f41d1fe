/** Finding the envelope fixtures of a workspace folder on disk (for find-references). */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const SKIPPED_DIRECTORIES = new Set(['node_modules', '.git']);
export const ENVELOPE_SUFFIX = '.babel.json';

/** Every `*.babel.json` below `root`, sorted, at most `limit` (a huge tree cannot stall the server). */
export function findFixtureFiles(root: string, limit = 20_000): string[] {
  const found: string[] = [];
  const stack = [root];
  while (stack.length > 0 && found.length < limit) {
    const directory = stack.pop()!;
    let entries;
    try {
      entries = readdirSync(directory, { withFileTypes: true });
    } catch {
      continue; // An unreadable directory holds nothing we can show.
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? 1 : -1))) {
      const path = join(directory, entry.name);
      if (entry.isDirectory() && !SKIPPED_DIRECTORIES.has(entry.name)) stack.push(path);
      else if (entry.isFile() && entry.name.endsWith(ENVELOPE_SUFFIX)) found.push(path);
    }
  }
  return found.sort().slice(0, limit);
}
