/**
 * The extension's custom requests about the registry: the entries for the "New Envelope…" picker
 * and the text of a new envelope for a URN (the status item's notification: server/registry-status.ts).
 */
import { newEnvelopeText } from '../../core/language/new-envelope';
import {
  NEW_ENVELOPE_METHOD,
  REGISTRY_ENTRIES_METHOD,
  type NewEnvelopeParams,
  type NewEnvelopeResult,
  type RegistryEntriesParams,
  type RegistryEntriesResult,
} from '../../core/language/protocol';
import { isDeprecatedStatus } from '../../core/registry/types';
import type { ServerContext } from '../context';
import { registryRequestHandler } from '../request';
import { NOT_READ_AS_REGISTRY } from '../../workspace/registry-loader';

export function registerRegistryRequests(context: ServerContext): void {
  const { connection } = context;

  connection.onRequest(
    REGISTRY_ENTRIES_METHOD,
    registryRequestHandler(context, REGISTRY_ENTRIES_METHOD, { entries: [], error: 'The registry could not be read; see the BabelQueue output.' }, ({ registry: state }, _params: RegistryEntriesParams): RegistryEntriesResult => {
      if (state.kind === 'none') return { entries: [], error: state.passedOver === undefined ? 'No registry.json (bqschema format) was found for this folder.' : `No registry was found for this folder: ${state.passedOver} ${NOT_READ_AS_REGISTRY}.` };
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
    }, true),
  );
}
