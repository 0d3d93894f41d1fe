/**
 * With `allErrors`, ajv also reports the wrappers (`if`, `anyOf`, `propertyNames`, `contains`) next
 * to the errors inside them; of those, one finding per actual problem survives here.
 */
import { literal } from '../model/describe-value';
import { plural } from '../model/count-words';
import { describeSchema, formatName, listValues } from './schema-words';
import type { SchemaError } from './types';

export interface Finding {
  readonly error: SchemaError;
  /** anyOf/oneOf matched by nothing: what each alternative wants (undefined when unsayable). */
  readonly alternatives?: readonly (string | undefined)[];
  /** propertyNames: why the name fails, from the errors ajv reports inside the wrapper. */
  readonly reasons?: readonly string[];
}

/** Keywords that say the value is the wrong kind of thing altogether (the branch was not meant). */
const SHALLOW_KEYWORDS = new Set(['type', 'const', 'enum', 'false schema', 'anyOf', 'oneOf']);

export function reduceNoise(errors: readonly SchemaError[]): Finding[] {
  const kept: Finding[] = [];
  // Dropped findings are only marked: a wrapper per array item must not cost a pass over everything.
  const dropped = new Set<Finding>();
  const drop = (findings: Iterable<Finding>): void => {
    for (const finding of findings) dropped.add(finding);
  };
  for (const error of errors) {
    const path = error.instancePath;
    const parent = error.parentSchema;
    switch (error.keyword) {
      case 'if':
        // "must match then schema": the errors of `then`/`else` are reported on their own.
        continue;
      case 'propertyNames': {
        // ajv reports the name's failures at the object's path, before the wrapper that names it.
        const inside = attributed(kept, dropped, parent?.propertyNames, path, true);
        drop(inside);
        kept.push({ error, reasons: [...inside].reverse().map((f) => nameReason(f.error)) });
        continue;
      }
      case 'contains':
        // Every item's failure is listed; none of them is the problem, the missing match is.
        drop(attributed(kept, dropped, parent?.contains, path, false));
        kept.push({ error });
        continue;
      case 'anyOf':
      case 'oneOf': {
        const branches = parent?.[error.keyword];
        if (Array.isArray(error.params.passingSchemas) || !Array.isArray(branches)) {
          kept.push({ error });
          continue;
        }
        const groups = branches.map((branch) => attributed(kept, dropped, branch, path, false));
        const meant = groups.filter((group) => group.size > 0 && ![...group].some((f) => f.error.instancePath === path && SHALLOW_KEYWORDS.has(f.error.keyword)));
        if (groups.every((group) => group.size > 0) && meant.length === 1) {
          // Only one alternative has the right shape: its own errors are the useful ones.
          for (const group of groups) if (group !== meant[0]) drop(group);
          continue;
        }
        for (const group of groups) drop(group);
        kept.push({ error, alternatives: branches.map(describeSchema) });
        continue;
      }
      default:
        kept.push({ error });
    }
  }
  return dropped.size === 0 ? kept : kept.filter((f) => !dropped.has(f));
}

/**
 * The findings that came from inside `schema` (ajv's `parentSchema` is the very subschema object,
 * so identity tells) at `path` or below it. They come right before their wrapper, so the scan goes
 * backwards and stops at the first finding outside `path`. Errors through a `$ref` point into
 * `definitions` and are not attributed; they stay, which is noisy but never hides a problem.
 */
function attributed(kept: readonly Finding[], dropped: ReadonlySet<Finding>, schema: unknown, path: string, samePathOnly: boolean): Set<Finding> {
  const found = new Set<Finding>();
  if (typeof schema !== 'object' || schema === null) return found;
  const inside = reachable(schema);
  for (let i = kept.length - 1; i >= 0; i--) {
    const finding = kept[i];
    const { parentSchema, instancePath } = finding.error;
    const within = instancePath === path || instancePath.startsWith(path === '' ? '/' : `${path}/`);
    if (!within) break;
    if (dropped.has(finding) || !parentSchema || !inside.has(parentSchema)) continue;
    if (!samePathOnly || instancePath === path) found.add(finding);
  }
  return found;
}

const reachableCache = new WeakMap<object, Set<object>>();

/** Every object inside a schema, itself included (iterative; cached, schemas do not change). */
function reachable(schema: object): Set<object> {
  const cached = reachableCache.get(schema);
  if (cached) return cached;
  const seen = new Set<object>();
  const stack: object[] = [schema];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (seen.has(node)) continue;
    seen.add(node);
    for (const value of Object.values(node)) if (typeof value === 'object' && value !== null) stack.push(value);
  }
  reachableCache.set(schema, seen);
  return seen;
}

/** Why a property name fails, from an error ajv reported against the name. */
function nameReason(error: SchemaError): string {
  const p = error.params;
  switch (error.keyword) {
    case 'pattern':
      return `match the pattern ${String(p.pattern)}`;
    case 'minLength':
      return `be at least ${plural(Number(p.limit), 'character')} long`;
    case 'maxLength':
      return `be at most ${plural(Number(p.limit), 'character')} long`;
    case 'enum':
      return `be one of ${listValues(p.allowedValues)}`;
    case 'const':
      return `be ${literal(p.allowedValue)}`;
    case 'format':
      return `be a valid ${formatName(String(p.format))}`;
    default:
      return error.message.replace(/^must /, '');
  }
}
