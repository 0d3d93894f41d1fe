/** The plain JS value of a tree value, as `JSON.parse` would give it: what ajv validates. */
import type { ValueNode } from './tree';

/** Converts a tree value to the plain JS value `JSON.parse` would give (iterative; last duplicate key wins). */
export function toJsValue(node: ValueNode): unknown {
  const box: Record<string, unknown> = {};
  const stack: [ValueNode, Record<string, unknown> | unknown[], string | number][] = [[node, box, 'value']];
  while (stack.length > 0) {
    const [current, target, key] = stack.pop()!;
    let value: unknown;
    switch (current.kind) {
      case 'object': {
        const object: Record<string, unknown> = {};
        value = object;
        // Pushed in reverse so keys are assigned in document order (first occurrence keeps its place).
        for (let i = current.properties.length - 1; i >= 0; i--) {
          const property = current.properties[i];
          if (property.value) stack.push([property.value, object, property.key]);
        }
        break;
      }
      case 'array': {
        const array: unknown[] = new Array(current.items.length);
        value = array;
        for (let i = current.items.length - 1; i >= 0; i--) stack.push([current.items[i], array, i]);
        break;
      }
      case 'number':
        value = Number(current.raw);
        break;
      case 'null':
        value = null;
        break;
      default:
        value = current.value;
    }
    assign(target, key, value);
  }
  return box.value;
}

function assign(target: Record<string, unknown> | unknown[], key: string | number, value: unknown): void {
  if (Array.isArray(target)) target[key as number] = value;
  // A plain assignment to "__proto__" would set the prototype; JSON.parse makes it an own key.
  else if (key === '__proto__') Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}

/** A JSON object as JSON.parse gives it (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
