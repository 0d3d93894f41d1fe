/**
 * Whether git matches a work tree's `.gitignore` and exclude lines without regard to case: its
 * `core.ignorecase`, which `git init` sets to true on a file system that folds case (macOS and
 * Windows by default). Read from the `config` of the work tree's common git directory
 * (workspace/git-exclude-file.ts), bounded, as a regular file only; the global and system
 * configurations are not read (as the global excludes file is not), nor files it includes.
 * Absent, unreadable or unset: false, git's default.
 */
import { join } from 'node:path';
import { readBoundedText, UnreadableFile } from './bounded-read';
import { gitCommonDirOf } from './git-exclude-file';

const MAX_CONFIG_BYTES = 1024 * 1024;

export function gitIgnoreCaseOf(top: string): boolean {
  const commonDir = gitCommonDirOf(top);
  if (commonDir === undefined) return false;
  let text: string;
  try {
    text = readBoundedText(join(commonDir, 'config'), MAX_CONFIG_BYTES);
  } catch (error) {
    if (error instanceof UnreadableFile) return false;
    throw error;
  }
  return configIgnoreCase(text);
}

/**
 * `core.ignorecase` in the text of a git config file, the last setting deciding: section and key
 * names without regard to case, a key alone meaning true, `true`/`yes`/`on` or a number other than
 * 0 true; a `[core "sub"]` section is another section.
 */
export function configIgnoreCase(text: string): boolean {
  let inCore = false;
  let ignoreCase = false;
  for (const rawLine of text.split('\n')) {
    let line = rawLine.trim();
    const header = /^\[\s*([A-Za-z0-9.-]+)\s*(?:"(?:[^"\\]|\\.)*"\s*)?\]/.exec(line);
    if (header) {
      inCore = header[1].toLowerCase() === 'core' && !header[0].includes('"');
      // A key may follow the header on its line.
      line = line.slice(header[0].length).trim();
    }
    if (!inCore) continue;
    const setting = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(line.replace(/\s[#;].*$|^[#;].*$/, ''));
    if (!setting || setting[1].toLowerCase() !== 'ignorecase') continue;
    const value = (setting[2] ?? 'true').trim().replace(/^"(.*)"$/, '$1').toLowerCase();
    ignoreCase = ['true', 'yes', 'on'].includes(value) || (/^-?\d+$/.test(value) && Number(value) !== 0);
  }
  return ignoreCase;
}
