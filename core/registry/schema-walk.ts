/**
 * Walking a draft-07 schema as data: its subschemas with their JSON pointers, local `$ref`s,
 * nested `$id`s, and `$ref` loops that never step into the data. Iterative throughout: a schema
 * can be nested arbitrarily deep.
 */
import { isRecord } from '../model/js-value';

/** The segments of a JSON pointer (`/a~1b/c` → `a/b`, `c`). */
export function decodePointer(pointer: string): string[] {
  return pointer === '' ? [] : pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** One segment of a JSON pointer, escaped. */
export function encodeSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Draft-07 keywords whose value is a schema, an array of schemas or a map of schemas. */
export const SCHEMA_KEYWORDS = ['items', 'additionalItems', 'contains', 'additionalProperties', 'propertyNames', 'if', 'then', 'else', 'not'];
export const SCHEMA_ARRAY_KEYWORDS = ['items', 'allOf', 'anyOf', 'oneOf'];
export const SCHEMA_MAP_KEYWORDS = ['properties', 'patternProperties', 'definitions', 'dependencies'];

/**
 * True when any object below the root has a `$id`: ajv collects ids over the whole schema when it
 * compiles, and refuses some (two subschemas with one id, the meta-schema's own). Read over every
 * nested value, not only the subschemas, so that it errs on the side of compiling early.
 */
export function hasNestedId(root: Record<string, unknown>): boolean {
  const stack: unknown[] = Object.values(root);
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null) continue;
    if (!Array.isArray(node) && Object.prototype.hasOwnProperty.call(node, '$id')) return true;
    for (const value of Array.isArray(node) ? node : Object.values(node)) stack.push(value);
  }
  return false;
}

/** Every subschema with its JSON pointer, iteratively (a schema can be nested arbitrarily deep). */
export function forEachSubschema(root: Record<string, unknown>, visit: (schema: Record<string, unknown>, pointer: string) => void): void {
  const stack: [unknown, string][] = [[root, '']];
  while (stack.length > 0) {
    const [node, pointer] = stack.pop()!;
    if (typeof node !== 'object' || node === null || Array.isArray(node)) continue;
    const schema = node as Record<string, unknown>;
    visit(schema, pointer);
    for (const keyword of SCHEMA_KEYWORDS) if (keyword in schema && !Array.isArray(schema[keyword])) stack.push([schema[keyword], `${pointer}/${keyword}`]);
    for (const keyword of SCHEMA_ARRAY_KEYWORDS) {
      const list = schema[keyword];
      if (Array.isArray(list)) list.forEach((item, i) => stack.push([item, `${pointer}/${keyword}/${i}`]));
    }
    for (const keyword of SCHEMA_MAP_KEYWORDS) {
      const map = schema[keyword];
      if (typeof map === 'object' && map !== null && !Array.isArray(map)) {
        for (const [name, sub] of Object.entries(map)) stack.push([sub, `${pointer}/${keyword}/${encodeSegment(name)}`]);
      }
    }
  }
}

/**
 * ajv's `inlineRefs` (ajv-instances.ts): a `$ref` target without a `$ref` of its own and of at most
 * this many keywords (counted as ajv counts them) is copied into each place that names it.
 */
export const INLINED_REF_KEYWORDS = 20;

/**
 * How many subschemas ajv compiles for the schema, and names its `dependencies` lists require, up
 * to just past `cap`: ajv generates code for each, about a millisecond apiece, so a wide schema of
 * a megabyte (20,000 properties) would take half a minute to compile, with the editor waiting.
 * `definitions` are counted only where a local `$ref` reaches them, as ajv compiles them: a
 * generated schema may bundle a library of types and name a few. A target ajv compiles once
 * counts once; one it copies into each place that names it (a few keywords) counts at each.
 */
export function compiledSize(root: Record<string, unknown>, cap: number): number {
  let size = 0;
  const seen = new Set<object>([root]);
  const inlined = new Map<object, boolean>();
  // [schema, copy]: a copy (an inlined target, which holds no $ref) is walked again at each reference.
  const stack: [Record<string, unknown>, boolean][] = [[root, false]];
  const push = (node: unknown, copy: boolean) => {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return;
    if (!copy) {
      if (seen.has(node)) return;
      seen.add(node);
    }
    stack.push([node as Record<string, unknown>, copy]);
  };
  while (stack.length > 0) {
    const [schema, copy] = stack.pop()!;
    size++;
    const dependencies = schema.dependencies;
    if (typeof dependencies === 'object' && dependencies !== null && !Array.isArray(dependencies)) {
      for (const required of Object.values(dependencies)) if (Array.isArray(required)) size += required.length;
    }
    if (size > cap) return size;
    if (typeof schema.$ref === 'string') {
      const target = resolveLocalRef(root, schema.$ref);
      if (typeof target === 'object' && target !== null && !Array.isArray(target)) {
        let copied = inlined.get(target);
        if (copied === undefined) inlined.set(target, (copied = ajvKeywordCount(target as Record<string, unknown>, INLINED_REF_KEYWORDS) <= INLINED_REF_KEYWORDS));
        push(target, copied);
      }
    }
    for (const keyword of SCHEMA_KEYWORDS) if (keyword in schema && !Array.isArray(schema[keyword])) push(schema[keyword], copy);
    for (const keyword of SCHEMA_ARRAY_KEYWORDS) {
      const list = schema[keyword];
      if (Array.isArray(list)) for (const item of list) push(item, copy);
    }
    for (const keyword of SCHEMA_MAP_KEYWORDS) {
      const map = schema[keyword];
      if (keyword !== 'definitions' && typeof map === 'object' && map !== null && !Array.isArray(map)) for (const sub of Object.values(map)) push(sub, copy);
    }
  }
  return size;
}

/** Keywords whose value ajv does not look into when it counts a target's keywords. */
const SIMPLE_INLINED = new Set(['type', 'format', 'pattern', 'maxLength', 'minLength', 'maxProperties', 'minProperties', 'maxItems', 'minItems', 'maximum', 'minimum', 'uniqueItems', 'multipleOf', 'required', 'enum', 'const']);

/**
 * The keywords of `schema` as ajv counts them to decide on inlining (Infinity with a `$ref`),
 * stopping once past `limit`: each key counts before its value is looked into, so the recursion
 * is at most `limit` deep.
 */
function ajvKeywordCount(schema: Record<string, unknown>, limit: number): number {
  let count = 0;
  for (const key in schema) {
    if (key === '$ref') return Infinity;
    if (++count > limit) return count;
    const value = schema[key];
    if (SIMPLE_INLINED.has(key) || typeof value !== 'object' || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      // ajv walks a string's indices as keys (`examples: ["abc"]` counts 3).
      if (typeof item === 'object' && item !== null) count += ajvKeywordCount(item as Record<string, unknown>, limit - count);
      else if (typeof item === 'string') count += item.length;
      if (count > limit) return count;
    }
  }
  return count;
}

/** Keywords that apply a subschema to the same value (no step into the data). */
const IN_PLACE_ARRAYS = ['allOf', 'anyOf', 'oneOf'];
const IN_PLACE_SCHEMAS = ['not', 'if', 'then', 'else'];

/** The subschemas that apply to the same value as `node`: its local `$ref`'s target and its in-place keywords' schemas. */
function inPlaceChildren(root: Record<string, unknown>, node: Record<string, unknown>): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const push = (value: unknown) => {
    if (isRecord(value)) out.push(value);
  };
  if (typeof node.$ref === 'string') push(resolveLocalRef(root, node.$ref));
  for (const keyword of IN_PLACE_ARRAYS) if (Array.isArray(node[keyword])) (node[keyword] as unknown[]).forEach(push);
  for (const keyword of IN_PLACE_SCHEMAS) push(node[keyword]);
  return out;
}

/**
 * A `$ref` chain that comes back to where it started without stepping into the data (`{"$ref": "#"}`,
 * a → b → a, `allOf: [{"$ref": "#"}]`) makes validation loop forever on any value; ajv compiles it
 * lazily and would only fail by exhausting the stack. Found here, iteratively, before compiling.
 */
export function findRefLoop(root: Record<string, unknown>): string | undefined {
  const pointers = new Map<object, string>();
  forEachSubschema(root, (sub, pointer) => {
    if (!pointers.has(sub)) pointers.set(sub, pointer);
  });
  const next = (node: Record<string, unknown>) => inPlaceChildren(root, node);
  // Iterative depth-first search with colours: grey is on the current path, black is done.
  const colour = new Map<object, 'grey' | 'black'>();
  for (const start of pointers.keys()) {
    if (colour.has(start)) continue;
    const stack: { node: Record<string, unknown>; children: Record<string, unknown>[]; index: number }[] = [{ node: start as Record<string, unknown>, children: next(start as Record<string, unknown>), index: 0 }];
    colour.set(start, 'grey');
    while (stack.length > 0) {
      const frame = stack[stack.length - 1];
      if (frame.index >= frame.children.length) {
        colour.set(frame.node, 'black');
        stack.pop();
        continue;
      }
      const child = frame.children[frame.index++];
      const state = colour.get(child);
      if (state === 'grey') {
        const name = (pointer: string | undefined) => (pointer ? pointer : 'the schema root');
        return `the subschema at ${name(pointers.get(frame.node))} leads back to ${name(pointers.get(child))} through "$ref" (or allOf/anyOf/oneOf/not/if) without stepping into the data, so validation would never end; make the reference go through "properties" or "items".`;
      }
      if (state === undefined) {
        colour.set(child, 'grey');
        stack.push({ node: child, children: next(child), index: 0 });
      }
    }
  }
  return undefined;
}

/** The subschema a local `$ref` (`#`, `#/definitions/x`) names, if any. */
export function resolveLocalRef(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let pointer: string;
  try {
    pointer = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  if (pointer === '') return root;
  if (!pointer.startsWith('/')) return undefined;
  let current: unknown = root;
  for (const segment of decodePointer(pointer)) {
    if (typeof current !== 'object' || current === null || !Object.prototype.hasOwnProperty.call(current, segment)) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

/**
 * How many subschemas validating one value can visit, counted through `$ref`, `allOf`/`anyOf`/
 * `oneOf` and `not`/`if`/`then`/`else`, up to `cap`. A validator must try every alternative when all
 * fail, so `anyOf` nested 24 deep through `$ref` (2^24 paths) takes minutes on any value, errors
 * or not; a schema over the cap is refused before it is compiled. Shared subschemas count once
 * per path, which is what a validator pays; steps into the data (`properties`, `items`) are bounded
 * by the payload instead and do not count.
 */
export function inPlaceBranching(root: Record<string, unknown>, cap: number): number {
  const counted = new Map<object, number>();
  const entered = new Set<object>();
  const children = (node: Record<string, unknown>) => inPlaceChildren(root, node);
  // Post-order, iteratively: a node's count is 1 plus its children's, once all of them are known.
  const stack: { node: Record<string, unknown>; leaving: boolean }[] = [{ node: root, leaving: false }];
  const roots: Record<string, unknown>[] = [];
  forEachSubschema(root, (sub) => roots.push(sub));
  let worst = 0;
  for (const start of roots) {
    if (counted.has(start)) continue;
    stack.push({ node: start, leaving: false });
    while (stack.length > 0) {
      const { node, leaving } = stack.pop()!;
      if (leaving) {
        let total = 1;
        // A child still being counted is a loop without a step into the data, refused elsewhere (findRefLoop).
        for (const child of children(node)) total = Math.min(cap + 1, total + (counted.get(child) ?? 1));
        counted.set(node, total);
        entered.delete(node);
        continue;
      }
      if (counted.has(node) || entered.has(node)) continue;
      entered.add(node);
      stack.push({ node, leaving: true });
      for (const child of children(node)) if (!counted.has(child)) stack.push({ node: child, leaving: false });
    }
    worst = Math.max(worst, counted.get(start) ?? 1);
    if (worst > cap) return worst;
  }
  return worst;
}
