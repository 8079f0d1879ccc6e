/**
 * The ajv standalone validators that load/cli/build.ts generates from schemas/ at build time
 * (schemas/index.ts standaloneValidatorsSource, K6_VALIDATOR_EXPORTS) and hands to esbuild under this
 * module name: the k6 bundles validate bodies without compiling a schema. A name missing from the
 * generated module fails the build.
 */
declare module 'generated:validators' {
  import type { SchemaValidators } from '../../contracts/rules/exchange.ts';

  type StandaloneValidator = SchemaValidators['listEnvelope'];

  export const validateTokenResponse: StandaloneValidator;
  export const validateErrorBody: StandaloneValidator;
  export const validateListEnvelope: StandaloneValidator;
  export const validateResourceObject: StandaloneValidator;
  export const validateContentAttributes: StandaloneValidator;
}
