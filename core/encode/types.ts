/**
 * Shared types of the per-SDK relay encoders (`core/encode/*.ts`): what one SDK writes when it
 * decodes an envelope and encodes it again (facts §3 and §8).
 */

export type SdkName = 'node' | 'php' | 'python' | 'go' | 'java' | 'dotnet';

/** The six SDKs, in the column order of the facts' §8 table. */
export const SDK_NAMES: readonly SdkName[] = ['php', 'python', 'node', 'go', 'java', 'dotnet'];

/** Display names, as messages spell them. */
export const SDK_LABELS: Readonly<Record<SdkName, string>> = {
  php: 'PHP',
  python: 'Python',
  node: 'Node',
  go: 'Go',
  java: 'Java',
  dotnet: '.NET',
};

/**
 * A remark on one encoder's output. `contract`: the SDK departs from the contract's re-emit rule
 * (write `job` never `urn`, keep unknown keys, never emit forbidden keys, `data` is an object);
 * `lossy`: a value changes or disappears; `representation`: same value, different text.
 */
export interface EncodeNote {
  readonly kind: 'contract' | 'lossy' | 'representation';
  readonly message: string;
  /** Where in the envelope, e.g. `data.price` or `meta.ext`; absent for whole-envelope notes. */
  readonly path?: string;
}

/** The bytes one SDK writes (as text; the wire carries its UTF-8 encoding), or why it cannot relay. */
export type EncodeResult =
  | { readonly ok: true; readonly text: string; readonly notes: EncodeNote[] }
  | { readonly ok: false; readonly error: string; readonly notes: EncodeNote[] };

/** One number as an SDK re-emits it: its text, or why the relay fails on it. */
export type NumberText = { readonly text: string; readonly why?: string } | { readonly error: string };
