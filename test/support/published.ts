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
