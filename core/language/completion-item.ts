/** A completion item in core's own terms (UTF-16 offsets); the server turns it into an LSP item. */
export interface CoreCompletionItem {
  readonly label: string;
  readonly kind: 'property' | 'value' | 'enum';
  readonly detail?: string;
  /** Markdown. */
  readonly documentation?: string;
  /** Snippet syntax when `isSnippet`, plain text otherwise. */
  readonly insertText: string;
  readonly isSnippet: boolean;
  /** The range the item replaces. */
  readonly offset: number;
  readonly end: number;
  readonly sortText?: string;
  readonly preselect?: boolean;
  /** Edits elsewhere that come with the item: the comma a property before it lacks. */
  readonly additionalEdits?: readonly { readonly offset: number; readonly end: number; readonly newText: string }[];
  /** Shown struck through (a deprecated URN). */
  readonly deprecated?: boolean;
}
