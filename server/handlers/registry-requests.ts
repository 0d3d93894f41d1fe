/**
 * The extension's custom requests about the registry: the entries for the "New Envelope…" picker,
 * the text of a new envelope for a URN, and the registry status shown in the status item.
 */
import { newEnvelopeText } from '../../core/language/new-envelope';
import {
  NEW_ENVELOPE_METHOD,
  REGISTRY_ENTRIES_METHOD,
  REGISTRY_STATUS_METHOD,
  type NewEnvelopeParams,
  type NewEnvelopeResult,
  type RegistryEntriesParams,
  type RegistryEntriesResult,
  type RegistryStatusParams,
} from '../../core/language/protocol';
import { isDeprecatedStatus, type RegistryState } from '../../core/registry/types';
import type { ServerContext } from '../context';
import { registryRequestHandler } from '../request';

export function registerRegistryRequests(context: ServerContext): void {
  const { connection } = context;

  connection.onRequest(
    REGISTRY_ENTRIES_METHOD,
    registryRequestHandler(context, REGISTRY_ENTRIES_METHOD, { entries: [], error: 'The registry could not be read; see the BabelQueue output.' }, ({ registry: state }, _params: RegistryEntriesParams): RegistryEntriesResult => {
      if (state.kind === 'none') return { entries: [], error: 'No registry.json (bqschema format) was found for this folder.' };
      if (state.kind === 'broken') return { registryPath: state.path, entries: [], error: state.error };
      return {
        registryPath: state.registry.path,
        entries: state.registry.entries.map((entry) => ({
          urn: entry.urn,
          ...(entry.owner ? { owner: entry.owner } : {}),
          ...(entry.status ? { status: entry.status } : {}),
          deprecated: isDeprecatedStatus(entry.status),
        })),
      };
    }),
  );

  connection.onRequest(
    NEW_ENVELOPE_METHOD,
    registryRequestHandler(context, NEW_ENVELOPE_METHOD, { text: '' }, ({ registry: state }, params: NewEnvelopeParams): NewEnvelopeResult => {
      const entry = state.kind === 'loaded' ? state.registry.byUrn.get(params.urn) : undefined;
      return { text: newEnvelopeText({ urn: params.urn, ...(entry?.schema?.value ? { schema: entry.schema.value } : {}), fresh: context.fresh }) };
    }),
  );
}

/** Tells the client which registry an envelope uses (or why none), for the status item. */
export function sendRegistryStatus(context: ServerContext, uri: string, state: RegistryState): void {
  const params: RegistryStatusParams =
    state.kind === 'none'
      ? { uri, state: 'none', message: 'No registry.json found for this file' }
      : state.kind === 'broken'
        ? { uri, state: 'broken', message: `Registry error: ${state.error}`, registryPath: state.path }
        : { uri, state: 'loaded', message: describeLoaded(state), registryPath: state.registry.path };
  context.connection.sendNotification(REGISTRY_STATUS_METHOD, params).catch(() => undefined);
}

function describeLoaded(state: Extract<RegistryState, { kind: 'loaded' }>): string {
  const { entries, problems } = state.registry;
  const count = `${entries.length} URN${entries.length === 1 ? '' : 's'}`;
  return problems.length === 0 ? `Registry: ${count}` : `Registry: ${count}, ${problems.length} problem${problems.length === 1 ? '' : 's'} in registry.json`;
}
