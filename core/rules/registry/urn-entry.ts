/**
 * The envelope's URN against the registry: unknown-urn (with "did you mean"), deprecated-urn, and
 * registry-error where the registry or the URN's schema cannot be used.
 */
import { isDeprecatedStatus, type Registry, type RegistryEntry } from '../../registry/types';
import { closest } from '../../model/edit-distance';
import { shortened } from '../../model/describe-value';
import { replaceValue } from '../../model/property-edits';
import { getProperty } from '../../model/tree';
import { quotedUrn, resolveUrn } from '../../contract/urn';
import type { Range } from '../context';
import { defineRule, type Fix, type FixContext } from '../definition';

export const rule = defineRule<'unknown-urn' | 'deprecated-urn' | 'registry-error'>({
  codes: [
    {
      code: 'unknown-urn',
      family: 'registry',
      severity: 'warning',
      summary: 'The URN has no entry in the registry.',
      docs: {
        fires: 'The URN has no entry in the registry; the message offers the closest registered URNs (edit distance).',
        instead: 'A registered URN, or a new entry in `registry.json` for a new message type.',
        example: { fires: '"job": "urn:babel:orders:craeted"', clean: '"job": "urn:babel:orders:created"' },
        fixes: 'Change the URN to one of the closest registered URNs (one fix each).',
      },
      fixes: unknownUrnFixes,
    },
    {
      code: 'deprecated-urn',
      family: 'registry',
      severity: 'warning',
      summary: 'The registry marks this URN deprecated, retired or sunset.',
      docs: {
        fires: 'The registry entry\'s status is `deprecated`, `retired` or `sunset` (tagged Deprecated: struck through).',
        instead: 'The URN that succeeds it: a breaking change mints a new URN (`…:created.v2`) and retires the old one.',
        example: { fires: '"job": "urn:babel:orders:placed"', clean: '"job": "urn:babel:orders:created"' },
      },
    },
    {
      code: 'registry-error',
      family: 'registry',
      severity: 'error',
      summary: 'The registry or the URN’s schema cannot be read, parsed or compiled.',
      docs: {
        fires:
          'The registry or the URN\'s schema cannot be read, parsed or compiled, or its path leaves the workspace folder. On the `job` value of affected envelopes, and in `registry.json` at the offending entry (also: duplicate URNs, URNs that break the naming rules, entries without `urn` or `schema`). With the `bqschema` setting, a schema that bqschema reads and only draft-07 refuses is none: `payload-schema` judges by bqschema and `misread-keyword` says where in the schema file draft-07 refuses it.',
        instead: 'A `registry.json` in the bqschema format whose schema paths stay inside the workspace and hold draft-07 schemas.',
        example: { fires: '{ "schemas": [{ "urn": "urn:babel:orders:created", "schema": "../elsewhere/order.json" }] }', clean: '{ "schemas": [{ "urn": "urn:babel:orders:created", "schema": "schemas/order-created.json" }] }' },
      },
    },
  ],
  files: {
    // registry.json itself: each of its problems where it is (a registry that cannot be read at all, at its start).
    registryFile: (state, report, settings) => {
      if (state.kind === 'none') return;
      const problems = state.kind === 'loaded' ? state.registry.problems : (state.problems ?? [{ offset: 0, end: 0, message: state.error }]);
      // With the bqschema verdict, a schema only draft-07 refuses is no problem of the registry
      // (bqschema check accepts it); its schema file says where draft-07 refuses it.
      for (const problem of problems) if (!(problem.draft07Only && settings.registryValidator === 'bqschema')) report('registry-error', problem, problem.message);
    },
  },
  check: (context) => {
    const { root } = context.envelope;
    const state = context.registry;
    if (!root || state.kind === 'none') return;
    const job = getProperty(root, 'job');
    const resolved = resolveUrn(job, getProperty(root, 'urn'));
    const anchor: Range = resolved?.node ?? job?.value ?? { offset: root.offset, end: root.offset + 1 };
    if (state.kind === 'broken') {
      context.report('registry-error', anchor, `The registry ${shortened(state.shownPath ?? state.path, 200)} cannot be used: ${state.error}`);
      return;
    }
    if (!resolved) return;
    const urn = resolved.node.value;
    const entry = state.registry.byUrn.get(urn);
    if (!entry) {
      const suggestions = suggestedUrns(urn, state.registry);
      const hint = suggestions.length > 0 ? ` Did you mean ${suggestions.map((s) => `"${quotedUrn(s.urn)}"${isDeprecatedStatus(s.status) ? ` (${shortened(s.status ?? '')})` : ''}`).join(', ')}?` : ' Register it, or check the spelling.';
      context.report('unknown-urn', resolved.node, `"${quotedUrn(urn)}" is not in the registry.${hint}`);
      return;
    }
    if (isDeprecatedStatus(entry.status)) {
      context.report('deprecated-urn', resolved.node, `"${quotedUrn(entry.urn)}" is ${shortened(entry.status ?? '')} in the registry${entry.owner ? ` (owner: ${shortened(entry.owner)})` : ''}: mint or move to its successor URN.`, { tags: ['deprecated'] });
    }
    // With the bqschema verdict, a schema only draft-07 refuses still judges the payload (payload-schema).
    const judgedByBqschema = context.settings.registryValidator === 'bqschema' && entry.schema?.subsetReadable;
    if (!entry.schema?.compiled && !judgedByBqschema) {
      context.report('registry-error', resolved.node, `The schema for "${quotedUrn(entry.urn)}" cannot be used: ${entry.schema?.error ?? 'it was not loaded'}`);
    }
  },
});

function unknownUrnFixes({ valueAt, registry }: FixContext): Fix[] {
  const value = valueAt();
  if (value?.kind !== 'string' || registry?.kind !== 'loaded') return [];
  return suggestedUrns(value.value, registry.registry).map((entry) => ({
    title: isDeprecatedStatus(entry.status) ? `Change the URN to "${quotedUrn(entry.urn)}" (${shortened(entry.status ?? '')})` : `Change the URN to "${quotedUrn(entry.urn)}"`,
    edits: [replaceValue(value, JSON.stringify(entry.urn))],
    // Never the obvious fix: a near name is a guess, and `--fix` must not rename a message type.
    preferred: false,
  }));
}

/** The closest registered URNs, active ones first: a deprecated URN is offered last and marked, never as the first guess. */
function suggestedUrns(urn: string, registry: Registry): RegistryEntry[] {
  const entries = closest(urn, registry.byUrn.keys()).map((candidate) => registry.byUrn.get(candidate)!);
  return [...entries.filter((entry) => !isDeprecatedStatus(entry.status)), ...entries.filter((entry) => isDeprecatedStatus(entry.status))];
}
