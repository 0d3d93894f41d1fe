/**
 * When a send may go ahead. The broker send is the only network side effect of the tools, so the
 * editor and the CLI walk the same steps: refuse in an untrusted workspace; ask before sending an
 * envelope with errors (naming their codes), and before publishing bytes that some SDK consumer
 * rejects (naming which and why); ask before sending to a host that is not this machine.
 */

export interface SendSituation {
  /** False in VS Code's Restricted Mode. The CLI is always trusted: the user typed the command. */
  readonly trusted: boolean;
  /**
   * The code of each error-severity diagnostic in the envelope, named in the question. An error is
   * lint's verdict, not a consumer's: a draft-07 `payload-schema` failure (a `pattern`, a `maximum`)
   * passes every SDK's consumer, so the question does not say that consumers reject it; which
   * consumers reject the bytes is `rejectedBy`.
   */
  readonly errorCodes: readonly string[];
  /**
   * The consumers that reject the bytes about to be published, with why (`describeRejections` of
   * core/message/acceptance.ts); empty when every measured consumer accepts them.
   */
  readonly rejectedBy?: string;
  /** The broker host is 127.0.0.0/8, ::1 or localhost. */
  readonly loopback: boolean;
  /** The host as people see it, for the question. */
  readonly host: string;
  /** Questions already answered yes (the CLI's --yes answers all of them). */
  readonly confirmed: ReadonlySet<ConfirmationKind>;
}

export type ConfirmationKind = 'errors' | 'rejected' | 'remote';

export type SendDecision =
  | { readonly action: 'send' }
  | { readonly action: 'refuse'; readonly reason: string }
  | { readonly action: 'confirm'; readonly kind: ConfirmationKind; readonly question: string; readonly confirmLabel: string };

/** Why a send is refused in an untrusted workspace: said before anything else a send would check. */
export const UNTRUSTED_SEND_REFUSAL = 'Sending is disabled in Restricted Mode: trust this workspace to send test envelopes to a broker.';

/** The next step for a send: go, refuse with a reason, or one question to ask first. */
export function decideSend(situation: SendSituation): SendDecision {
  if (!situation.trusted) return { action: 'refuse', reason: UNTRUSTED_SEND_REFUSAL };
  const errors = situation.errorCodes.length;
  if (errors > 0 && !situation.confirmed.has('errors')) {
    const problems = errors === 1 ? '1 error' : `${errors} errors`;
    const codes = [...new Set(situation.errorCodes.filter((code) => code !== ''))];
    return { action: 'confirm', kind: 'errors', question: `This envelope has ${problems}${codes.length > 0 ? ` (${codes.join(', ')})` : ''}. Send anyway?`, confirmLabel: 'Send Anyway' };
  }
  if (situation.rejectedBy && !situation.confirmed.has('rejected')) {
    return { action: 'confirm', kind: 'rejected', question: `Some SDK consumers reject these bytes: ${situation.rejectedBy}. Send anyway?`, confirmLabel: 'Send Anyway' };
  }
  if (!situation.loopback && !situation.confirmed.has('remote')) {
    return { action: 'confirm', kind: 'remote', question: `${situation.host} is not this machine. Send a test envelope to it?`, confirmLabel: 'Send' };
  }
  return { action: 'send' };
}
