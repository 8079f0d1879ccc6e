/**
 * The ajv standalone validators load/cli/build.ts generates from schemas/ and hands to esbuild under this
 * name: k6 compiles no schema. A name missing from the generated module fails the build.
 */
declare module 'generated:validators' {
  import type { SchemaValidators } from '../../contracts/rules/exchange.ts';

  type StandaloneValidator = SchemaValidators['validateListEnvelope'];

  export const validateTokenResponse: StandaloneValidator;
  export const validateErrorBody: StandaloneValidator;
  export const validateListEnvelope: StandaloneValidator;
  export const validateResourceObject: StandaloneValidator;
  export const validateContentAttributes: StandaloneValidator;
}
