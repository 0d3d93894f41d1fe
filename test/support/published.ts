/**
 * An LSP diagnostic as `babelq lint --format json` publishes it (cli/diagnostics.ts), so the
 * parity tests compare the server with the CLI field for field, related findings included.
 */
const SEVERITY_NAMES = ['', 'error', 'warning', 'information', 'hint'];

export function asPublished(diagnostic: any): Record<string, unknown> {
  const published: Record<string, unknown> = { code: diagnostic.code, severity: SEVERITY_NAMES[diagnostic.severity], message: diagnostic.message, range: diagnostic.range };
  if (diagnostic.relatedInformation?.length) {
    published.related = diagnostic.relatedInformation.map((related: { message: string; location: { range: unknown } }) => {
      const colon = related.message.indexOf(': ');
      return { code: related.message.slice(0, colon), message: related.message.slice(colon + 2), range: related.location.range };
    });
  }
  return published;
}

/**
 * A JSON.parse reviver that reads `babelq lint --format json` as an editor can be sent it, for
 * comparing with asPublished: LSP's relatedInformation is a location and a message, with no
 * severity, so a carried finding's own severity (json's `related[].severity`) has nothing there to
 * be compared with and is left out.
 */
export function asSentToEditor(key: string, value: unknown): unknown {
  if (key !== 'related' || !Array.isArray(value)) return value;
  return value.map(({ severity: _severity, ...carried }: Record<string, unknown>) => carried);
}
