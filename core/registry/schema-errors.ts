/**
 * From ajv's errors on a `data` value to ranges in the fixture and sentences that say what to write.
 *
 * ajv reports against a plain JS copy of `data` with JSON-pointer paths; we walk each path down our
 * own tree to the node, then pick the part of the text the keyword is about: the value for a value
 * constraint, the key for a field that should not be there, the object's key for a field that is
 * missing. With `allErrors`, ajv also reports the wrappers (`if`, `anyOf`, `propertyNames`,
 * `contains`) next to the errors inside them; one finding per actual problem survives.
 */
import type { ObjectNode, PropertyNode, ValueNode } from '../model/tree';
import { editDistance } from '../model/edit-distance';
import { reduceNoise, type Finding } from './schema-error-noise';
import { describeValue, literal, shortened, valueText } from '../model/describe-value';
import { plural } from '../model/count-words';
import { cappedList, comparison, describeSchema, formatName, listValues, quote, typeHint, typesOf, withArticle } from './schema-words';
import type { SchemaError } from './types';

/** One payload-schema problem at a range of the fixture text. */
export interface MappedSchemaError {
  readonly offset: number;
  readonly end: number;
  readonly message: string;
  readonly keyword: string;
}

/** Maps ajv errors on `dataNode` to precise fixture ranges with actionable messages (deduplicated, in text order). */
export function mapSchemaErrors(dataNode: ValueNode, dataProperty: PropertyNode | undefined, errors: readonly SchemaError[]): MappedSchemaError[] {
  const seen = new Set<string>();
  const mapped: MappedSchemaError[] = [];
  for (const { result } of mapEachSchemaError(dataNode, dataProperty, errors)) {
    const id = `${result.offset}:${result.end}:${result.message}`;
    if (seen.has(id)) continue;
    seen.add(id);
    mapped.push(result);
  }
  // Array.prototype.sort is stable, so findings on one range keep ajv's order.
  return mapped.sort((a, b) => a.offset - b.offset || a.end - b.end);
}

/** Each error that survives the noise filter with its mapped range and message, in ajv's order, not deduplicated. */
export function mapEachSchemaError(dataNode: ValueNode, dataProperty: PropertyNode | undefined, errors: readonly SchemaError[]): { readonly error: SchemaError; readonly result: MappedSchemaError }[] {
  const mapper = new Mapper(dataNode, dataProperty);
  return reduceNoise(errors).map((finding) => ({ error: finding.error, result: mapper.map(finding) }));
}


interface Target {
  readonly node: ValueNode;
  /** The steps actually followed: keys and array indexes. */
  readonly steps: readonly (string | number)[];
}

class Mapper {
  /** The "did you mean" searches of this mapping: thousands of unknown keys beside a schema of thousands of names must not multiply. */
  readonly suggestions = new SuggestionBudget();
  /** Key lookups per object, built on first use: ajv can report thousands of errors on one object. */
  private readonly keys = new Map<ObjectNode, Map<string, PropertyNode>>();

  constructor(
    private readonly data: ValueNode,
    private readonly dataProperty: PropertyNode | undefined,
  ) {}

  map(finding: Finding): MappedSchemaError {
    const { error } = finding;
    const target = this.follow(error.instancePath);
    const { node } = target;
    const label = this.label(target.steps);
    const name = quote(label);
    const p = error.params;
    const keyword = error.keyword;
    const at = (range: { offset: number; end: number }, message: string): MappedSchemaError => ({ offset: range.offset, end: range.end, message, keyword });

    switch (keyword) {
      case 'required': {
        const missing = String(p.missingProperty);
        const expected = describeSchema(propertySchema(error.parentSchema, missing));
        const where = node === this.data ? '' : ` in ${name}`;
        return at(this.objectAnchor(node), `missing required field ${quote(missing)}${expected ? ` (${expected})` : ''}${where}`);
      }
      case 'additionalProperties': {
        const extra = String(p.additionalProperty);
        const property = node.kind === 'object' ? this.property(node, extra) : undefined;
        return at(property ? keyRange(property) : this.objectAnchor(node), extraFieldMessage(extra, label, allowedNamesOf(error.parentSchema), this.suggestions));
      }
      case 'dependencies': {
        const trigger = String(p.property);
        const property = node.kind === 'object' ? this.property(node, trigger) : undefined;
        return at(property ? keyRange(property) : this.objectAnchor(node), `${quote(trigger)} requires ${quote(String(p.missingProperty))} to be present in ${name} too`);
      }
      case 'propertyNames': {
        const key = String(p.propertyName);
        const property = node.kind === 'object' ? this.property(node, key) : undefined;
        const reasons = finding.reasons?.length ? finding.reasons.join(' and ') : 'satisfy "propertyNames"';
        return at(property ? keyRange(property) : this.objectAnchor(node), `the field name ${quote(key)} is not allowed in ${name}: names must ${reasons}`);
      }
      case 'minProperties':
      case 'maxProperties': {
        const count = node.kind === 'object' ? new Set(node.properties.map((q) => q.key)).size : 0;
        const bound = keyword === 'minProperties' ? 'at least' : 'at most';
        return at(this.objectAnchor(node), `${name} must have ${bound} ${plural(Number(p.limit), 'field')}; found ${count}`);
      }
      case 'false schema':
        return at(node !== this.data && node.property ? keyRange(node.property) : node, `${name} is not allowed here; remove it`);
      case 'type': {
        const expected = typesOf({ type: p.type });
        return at(node, `${name} must be ${expected.map(withArticle).join(' or ')}, not ${describeValue(node)}${typeHint(expected, node)}`);
      }
      case 'enum': {
        const values = Array.isArray(p.allowedValues) ? p.allowedValues : [];
        const want = values.length === 1 ? literal(values[0]) : `one of ${listValues(values)}`;
        return at(node, `${name} must be ${want}; found ${valueText(node)}`);
      }
      case 'const':
        return at(node, `${name} must be ${literal(p.allowedValue)}; found ${valueText(node)}`);
      case 'minimum':
      case 'maximum':
      case 'exclusiveMinimum':
      case 'exclusiveMaximum':
        // The bound as the schema file writes it where the double compared is another number.
        return at(node, `${name} must be ${comparison(String(p.comparison))} ${error.limitText ?? String(p.limit)}; found ${valueText(node)}`);
      case 'multipleOf':
        return at(node, `${name} must be a multiple of ${error.limitText ?? String(p.multipleOf)}; found ${valueText(node)}`);
      case 'minLength':
      case 'maxLength': {
        const length = node.kind === 'string' ? [...node.value].length : 0;
        const bound = keyword === 'minLength' ? 'at least' : 'at most';
        return at(node, `${name} must be ${bound} ${plural(Number(p.limit), 'character')} long; found ${length}`);
      }
      case 'pattern':
        return at(node, `${name} must match the pattern ${shortened(String(p.pattern))}; found ${valueText(node)}`);
      case 'format':
        return at(node, `${name} must be a valid ${formatName(String(p.format))}; found ${valueText(node)}`);
      case 'minItems': {
        const count = node.kind === 'array' ? node.items.length : 0;
        return at(node, `${name} must have at least ${plural(Number(p.limit), 'item')}; found ${count}`);
      }
      case 'maxItems':
      case 'additionalItems': {
        const limit = Number(p.limit);
        const count = node.kind === 'array' ? node.items.length : 0;
        const why = keyword === 'additionalItems' ? `${name} takes only the ${plural(limit, 'item')} its tuple schema lists` : `${name} must have at most ${plural(limit, 'item')}`;
        return at(surplus(node, limit), `${why}; found ${count}, remove ${count - limit === 1 ? 'the last one' : `the last ${count - limit}`}`);
      }
      case 'uniqueItems': {
        const later = Number(p.i);
        const earlier = Number(p.j);
        const item = node.kind === 'array' ? node.items[later] : undefined;
        return at(item ?? node, `${name} must not repeat items: item ${later} is the same as item ${earlier}`);
      }
      case 'contains':
        return at(node, `${name} must contain at least one item that is ${withArticle(describeSchema(error.parentSchema?.contains) ?? 'valid against "contains"')}`);
      case 'not': {
        const forbidden = describeSchema(error.parentSchema?.not);
        return at(node, `${name} must not be ${forbidden ? withArticle(forbidden) : `what its "not" schema describes; found ${valueText(node)}`}`);
      }
      case 'anyOf':
      case 'oneOf': {
        const passing = p.passingSchemas;
        if (Array.isArray(passing)) {
          return at(node, `${name} matches ${passing.length} alternatives of "oneOf" (${passing.map((i) => `#${Number(i) + 1}`).join(', ')}); it must match exactly one`);
        }
        const alternatives = finding.alternatives ?? [];
        if (alternatives.length > 0 && alternatives.every((a) => a !== undefined)) {
          return at(node, `${name} must be ${alternatives.map((a) => withArticle(a!)).join(' or ')}; found ${valueText(node)}`);
        }
        return at(node, `${name} matches none of the ${alternatives.length} alternatives of "${keyword}"; found ${valueText(node)}`);
      }
      default:
        return at(node, `${name} ${error.message}`);
    }
  }

  /** Walks a JSON pointer down the tree; stops at the nearest existing node if a step is missing. */
  private follow(pointer: string): Target {
    let node = this.data;
    const steps: (string | number)[] = [];
    if (pointer === '') return { node, steps };
    for (const raw of pointer.slice(1).split('/')) {
      const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      if (node.kind === 'object') {
        const value = this.property(node, segment)?.value;
        if (!value) break;
        node = value;
        steps.push(segment);
      } else if (node.kind === 'array' && /^(?:0|[1-9]\d*)$/.test(segment) && Number(segment) < node.items.length) {
        const index = Number(segment);
        node = node.items[index];
        steps.push(index);
      } else {
        break;
      }
    }
    return { node, steps };
  }

  /** The property ajv saw for `key`: the last one with a value, as JSON.parse keeps the last duplicate. */
  private property(object: ObjectNode, key: string): PropertyNode | undefined {
    let index = this.keys.get(object);
    if (!index) {
      index = new Map();
      for (const property of object.properties) if (property.value) index.set(property.key, property);
      this.keys.set(object, index);
    }
    return index.get(key);
  }

  /** What a field is called in messages: its key, with the indexes that follow it (`items[2]`). */
  private label(steps: readonly (string | number)[]): string {
    let i = steps.length;
    while (i > 0 && typeof steps[i - 1] === 'number') i--;
    const base = i > 0 ? String(steps[i - 1]) : (this.dataProperty?.key ?? 'data');
    return base + steps.slice(i).map((index) => `[${index}]`).join('');
  }

  /** Where a problem of a whole object goes: its key (for `data`, the `data` key); an array item has none. */
  private objectAnchor(node: ValueNode): { offset: number; end: number } {
    if (node === this.data) return this.dataProperty ? keyRange(this.dataProperty) : node;
    return node.property ? keyRange(node.property) : node;
  }
}

function keyRange(property: PropertyNode): { offset: number; end: number } {
  return { offset: property.keyOffset, end: property.keyEnd };
}

/** The items past `limit`, from the first surplus one to the last; the array when there are none. */
function surplus(node: ValueNode, limit: number): { offset: number; end: number } {
  if (node.kind !== 'array' || !(limit >= 0) || limit >= node.items.length) return node;
  const items = node.items;
  return { offset: items[limit].offset, end: items[items.length - 1].end };
}

function propertySchema(parent: Record<string, unknown> | undefined, key: string): unknown {
  const properties = parent?.properties;
  if (typeof properties !== 'object' || properties === null || !Object.prototype.hasOwnProperty.call(properties, key)) return undefined;
  return (properties as Record<string, unknown>)[key];
}

/** A schema's property names, as messages name them and in lowercase, and its pattern names; read once per schema object. */
interface AllowedNames {
  readonly names: readonly string[];
  readonly lowered: readonly string[];
  readonly patterns: readonly string[];
}

const allowedNamesBySchema = new WeakMap<object, AllowedNames>();
const NO_NAMES: AllowedNames = { names: [], lowered: [], patterns: [] };

/**
 * The names an object's schema allows, kept for the schema object: ajv reports each unknown key of
 * an object as an error of its own, and reading the names again for each was the square of them.
 */
function allowedNamesOf(parent: Record<string, unknown> | undefined): AllowedNames {
  if (!parent) return NO_NAMES;
  let allowed = allowedNamesBySchema.get(parent);
  if (!allowed) {
    const properties = parent.properties;
    const names = typeof properties === 'object' && properties !== null ? Object.keys(properties) : [];
    const patterns = typeof parent.patternProperties === 'object' && parent.patternProperties !== null ? Object.keys(parent.patternProperties) : [];
    allowed = { names, lowered: names.map((name) => name.toLowerCase()), patterns };
    allowedNamesBySchema.set(parent, allowed);
  }
  return allowed;
}

/**
 * How many names the "did you mean" searches of one mapping may compare: past it, an unknown key's
 * message names the allowed fields without a guess. A key and a name compare in microseconds, but
 * 5,000 unknown keys beside a schema of 5,000 names (the two validators each mapping them) took 20 s.
 */
class SuggestionBudget {
  private left = 1_000_000;

  /** The allowed name within a few edits of `extra` (compared in lowercase), while the budget lasts. */
  nearest(extra: string, allowed: AllowedNames): string | undefined {
    if (allowed.names.length > this.left) {
      this.left = 0;
      return undefined;
    }
    this.left -= allowed.names.length;
    const maxDistance = Math.max(2, Math.floor(extra.length / 4));
    const target = extra.toLowerCase();
    let best: string | undefined;
    let bestDistance = maxDistance + 1;
    allowed.lowered.forEach((name, i) => {
      const distance = editDistance(target, name, bestDistance);
      if (distance < bestDistance) {
        best = allowed.names[i];
        bestDistance = distance;
      }
    });
    return best;
  }
}

function extraFieldMessage(extra: string, label: string, allowed: AllowedNames, suggestions: SuggestionBudget): string {
  const best = suggestions.nearest(extra, allowed);
  const parts = [`${quote(extra)} is not a field of ${quote(label)}${best !== undefined ? ` (did you mean ${quote(best)}?)` : ''}`];
  const { names, patterns } = allowed;
  if (names.length > 0 || patterns.length > 0) {
    const shown = cappedList(names, 8, quote);
    const byPattern = patterns.length > 0 ? `${shown ? ', or ' : ''}names matching ${patterns.join(' or ')}` : '';
    parts.push(`allowed: ${shown}${byPattern}`);
  } else {
    parts.push(`${quote(label)} takes no fields; remove it`);
  }
  return parts.join('; ');
}
