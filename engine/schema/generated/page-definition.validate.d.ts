import type { ErrorObject } from 'ajv';

/** The page-definition JSON Schema as generated code (see scripts/generate-schema-validator.ts). */
export interface GeneratedValidate {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}
export declare const validate: GeneratedValidate;
export default validate;
