/** The ajv standalone validators load/cli/build.ts generates from schemas/ (k6 compiles no schema); a name the module lacks fails the build. */
declare module 'generated:validators' {
  import type { SchemaValidators } from '../../contracts/rules/exchange.ts';
  export const validateTokenResponse: SchemaValidators['validateTokenResponse'];
  export const validateErrorBody: SchemaValidators['validateErrorBody'];
  export const validateListEnvelope: SchemaValidators['validateListEnvelope'];
  export const validateResourceObject: SchemaValidators['validateResourceObject'];
  export const validateContentAttributes: SchemaValidators['validateContentAttributes'];
}
