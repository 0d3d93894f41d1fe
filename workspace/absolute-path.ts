/**
 * `path.resolve` for the paths a walk over the workspace makes, which are already absolute and
 * normal: returned as they are. `resolve` rebuilds every path it is given character by character,
 * and the report of 10,000 fixtures asks for each one's path a dozen times (its configs, ignores,
 * registry): a sixth of all the memory that report allocated, for strings equal to the input.
 */
import { resolve, sep } from 'node:path';

const SLASH = 0x2f;
const DOT = 0x2e;

/** The absolute, normal form of `path`, as `resolve(path)` gives it. */
export function resolvedPath(path: string): string {
  return sep === '/' && isNormalAbsolute(path) ? path : resolve(path);
}

/** A POSIX path that `resolve` would return unchanged: absolute, no empty, `.` or `..` segment, no trailing slash. */
function isNormalAbsolute(path: string): boolean {
  if (path.charCodeAt(0) !== SLASH) return false;
  if (path.length === 1) return true;
  for (let i = 0; i < path.length; i++) {
    if (path.charCodeAt(i) !== SLASH) continue;
    const next = path.charCodeAt(i + 1); // NaN past the end: a trailing slash
    if (next !== next || next === SLASH) return false;
    if (next === DOT) {
      const after = path.charCodeAt(i + 2);
      if (after !== after || after === SLASH) return false;
      if (after === DOT) {
        const third = path.charCodeAt(i + 3);
        if (third !== third || third === SLASH) return false;
      }
    }
  }
  return true;
}
