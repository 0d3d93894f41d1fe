/**
 * No recursion a file can overflow: 100,000 levels of `[` and of `{"a":` (closed and left open,
 * as the whole document and inside `data`) through parse, rules (with and without a registry,
 * including a recursive `$ref` schema), quick fixes, hover, completion, outline, folding,
 * selection, formatting, every encoder, toJsValue, the preview and schema compilation. Nothing may
 * throw (a RangeError is the symptom this file exists for); each answer must also stay usable.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { codeActions } from '../../core/language/code-actions';
import { analyze } from '../../core/rules/analyze';
import { complete } from '../../core/language/complete';
import { applyEdits } from '../../core/model/edits';
import { encodeEnvelope, SDK_NAMES } from '../../core/encode';
import { findDivergences } from '../../core/encode/divergence';
import { foldingRanges } from '../../core/language/folding';
import { formatDocument } from '../../core/language/format';
import { hover } from '../../core/language/hover';
import { renderPreview } from '../../core/message/preview';
import { newEnvelopeText } from '../../core/language/new-envelope';
import { parseJson } from '../../core/parse/parser';
import { LineIndex } from '../../core/model/positions';
import { exampleValue } from '../../core/registry/example';
import { registryDefinition } from '../../core/language/registry-navigation';
import { toJsValue } from '../../core/model/js-value';
import { MAX_VALIDATION_DEPTH } from '../../core/registry/compiled-schema';
import { compileSchema } from '../../core/registry/schema-compiler';
import type { RegistryState } from '../../core/registry/types';
import { selectionRanges } from '../../core/language/selection';
import { documentSymbols } from '../../core/language/symbols';
import { loadRegistry } from '../../workspace/registry-loader';
import { deepText, FRESH, loadRegistryStates } from './harness';

const DEPTH = 100_000;
const HEAD = '{"job":"urn:babel:t:tree","trace_id":"879d3f59-ee5b-4906-a1ca-d48ee72daa1d","data":{"x":';
const TAIL = '},"meta":{"id":"38e69665-58a3-4fd5-9410-76043454db83","queue":"q","lang":"php","schema_version":1,"created_at":1773480413412},"attempts":0}';

/** A registry whose one schema is recursive (`$ref` to itself through properties and items). */
const workspace = mkdtempSync(join(tmpdir(), 'babelq-deep-'));
mkdirSync(join(workspace, 'schemas'));
writeFileSync(join(workspace, 'registry.json'), JSON.stringify({ schemas: [{ urn: 'urn:babel:t:tree', schema: 'schemas/tree.json' }] }));
writeFileSync(
  join(workspace, 'schemas/tree.json'),
  JSON.stringify({ type: ['object', 'array', 'integer'], properties: { a: { $ref: '#' }, x: { $ref: '#' } }, items: { $ref: '#' }, additionalProperties: false }),
);
const recursive = loadRegistry(join(workspace, 'registry.json'), workspace).state;
const registries: RegistryState[] = [...loadRegistryStates().slice(0, 2), recursive];
after(() => rmSync(workspace, { recursive: true, force: true }));

const CASES: { name: string; text: string }[] = [
  { name: '[ × 100,000 (closed)', text: deepText(DEPTH, 'array', true) },
  { name: '{"a": × 100,000 (closed)', text: deepText(DEPTH, 'object', true) },
  { name: '[ × 100,000 (never closed)', text: deepText(DEPTH, 'array', false) },
  { name: '{"a": × 100,000 (never closed)', text: deepText(DEPTH, 'object', false) },
  { name: 'data.x = [ × 100,000', text: HEAD + deepText(DEPTH, 'array', true) + TAIL },
  { name: 'data.x = {"a": × 100,000', text: HEAD + deepText(DEPTH, 'object', true) + TAIL },
  { name: 'data.x = [{"a": alternating × 100,000', text: HEAD + deepText(DEPTH, 'mixed', true) + TAIL },
  { name: 'data.x = {"a": × 100,000, cut off', text: HEAD + deepText(DEPTH, 'object', false) },
];

describe('100,000 levels of nesting: no RangeError anywhere', () => {
  assert.equal(recursive.kind, 'loaded');

  for (const { name, text } of CASES) {
    test(name, () => {
      const doc = parseJson(text);
      const lines = new LineIndex(text);
      const offsets = [0, 1, text.length >> 1, text.length - 1, text.length];
      for (const registry of registries) {
        const diagnostics = analyze(doc, undefined, registry);
        for (const d of diagnostics) assert.ok(d.offset >= 0 && d.offset <= d.end && d.end <= text.length, `${d.code} range`);
        for (const action of codeActions(doc, diagnostics, FRESH, registry)) applyEdits(text, action.edits);
        for (const offset of offsets) {
          complete(doc, offset, FRESH, registry);
          hover(doc, offset, registry);
          if (registry.kind === 'loaded') registryDefinition(doc, offset, registry.registry);
        }
        if (registry === recursive && name.startsWith('data.x') && !name.includes('cut off')) {
          const payload = diagnostics.filter((d) => d.code === 'payload-schema');
          assert.ok(payload.some((d) => d.message.includes(`more than ${MAX_VALIDATION_DEPTH} levels deep`)), JSON.stringify(payload.map((d) => d.message)));
        }
      }
      // The outline and selection are bounded in depth, so the LSP reply serialises (JSON.stringify recurses).
      JSON.stringify(documentSymbols(doc));
      assert.ok(foldingRanges(doc, lines).length <= 5000);
      for (const chain of selectionRanges(doc, offsets)) assert.ok(chain.length >= 1);
      const edits = formatDocument(doc, { tabSize: 2, insertSpaces: true });
      if (edits.length > 0) applyEdits(text, edits);
      for (const sdk of SDK_NAMES) {
        const result = encodeEnvelope(doc, sdk);
        if (doc.syntaxProblems.length > 0 || doc.root?.kind !== 'object') assert.equal(result.ok, false, sdk);
      }
      findDivergences(doc);
      if (doc.root) toJsValue(doc.root);
      const preview = renderPreview(doc, { sdk: 'auto', freshIds: true, fresh: FRESH, redisLayout: 'babelqueue', target: 'redis://127.0.0.1:6379' });
      assert.ok(preview.length > 0);
    });
  }

  test('recursive schema: validated below the depth limit, reported (not overflowed) above it', () => {
    const result = compileSchema({ type: ['object', 'integer'], properties: { a: { $ref: '#' } }, additionalProperties: false });
    assert.ok('compiled' in result, JSON.stringify(result));
    const nest = (levels: number, leaf: unknown): unknown => {
      let value: unknown = leaf;
      for (let i = 0; i < levels; i++) value = { a: value };
      return value;
    };
    // Just inside the limit: ajv really walks it, and finds the string at the bottom.
    const inside = result.compiled.validate(nest(MAX_VALIDATION_DEPTH - 1, 'x'));
    assert.deepEqual(inside.map((e) => e.keyword), ['type']);
    assert.deepEqual(result.compiled.validate(nest(MAX_VALIDATION_DEPTH - 1, 1)), []);
    const outside = result.compiled.validate(nest(DEPTH, 'x'));
    assert.equal(outside.length, 1);
    assert.match(outside[0].message, /not validated/);
  });

  test('a schema nested 100,000 levels deep: a clear error, an example, a new envelope', () => {
    const text = '{"type":"object","properties":{"a":'.repeat(DEPTH) + '{"type":"integer"}' + '}}'.repeat(DEPTH);
    const schema = JSON.parse(text) as Record<string, unknown>;
    const result = compileSchema(schema);
    assert.ok('error' in result && /nested too deeply|not plain JSON/.test(result.error), JSON.stringify(result).slice(0, 300));
    exampleValue(schema);
    assert.ok(newEnvelopeText({ urn: 'urn:babel:t:deep', schema, fresh: FRESH }).length > 0);
  });
});
