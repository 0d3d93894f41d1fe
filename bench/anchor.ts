/** The anchor: VS Code's own JSON language service with the envelope schema, and jsonc-parser's scanner. */
import { readFileSync } from 'node:fs';
import * as jsonc from 'jsonc-parser';
import { getLanguageService, TextDocument } from 'vscode-json-languageservice';
import { ENVELOPE_SCHEMA } from './context';

const envelopeSchema = JSON.parse(readFileSync(ENVELOPE_SCHEMA, 'utf8')) as object;
const SCHEMA_URI = 'file:///bench/envelope.schema.json';
const jsonService = getLanguageService({});
jsonService.configure({ validate: true, allowComments: false, schemas: [{ uri: SCHEMA_URI, fileMatch: ['*.babel.json'], schema: envelopeSchema }] });

export function anchorValidate(document: TextDocument): PromiseLike<unknown[]> {
  const json = jsonService.parseJSONDocument(document);
  return jsonService.doValidation(document, json, { comments: 'error', trailingCommas: 'error', schemaValidation: 'error' });
}

export async function anchorText(text: string, uri = 'file:///bench/doc.babel.json'): Promise<unknown[]> {
  return anchorValidate(TextDocument.create(uri, 'json', 1, text));
}

/** jsonc-parser's SyntaxKind.EOF (a const enum, which isolated modules cannot read). */
const SCANNER_EOF = 17;

export function jsoncScan(text: string): number {
  const scanner = jsonc.createScanner(text, false);
  let count = 0;
  while (scanner.scan() !== SCANNER_EOF) count++;
  return count;
}
