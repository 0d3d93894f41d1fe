/** The draft-07 meta-schema validator, generated as standalone code (scripts/generate-meta-validator.mjs). */
import type { ErrorObject } from 'ajv';

declare const validateDraft07: {
  (schema: unknown): boolean;
  errors?: ErrorObject[] | null;
};
export default validateDraft07;
