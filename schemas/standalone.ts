/**
 * ajv standalone code generated from schemas/ at build time, for the bundles that must not compile a schema when they start: the k6 scripts (load/cli/build.ts)
 * and the installable mock (mock/build.ts); only the Ajv options differ.
 */
import Ajv2020, { type Options } from 'ajv/dist/2020';
import standaloneCode from 'ajv/dist/standalone';
import { AJV_OPTIONS, CONTENT_ATTRIBUTE_NAMES, contentAttributeRef, SCHEMA_IDS, SCHEMAS, type SchemaKey, validatorName } from './registry.ts';

const K6_SCHEMAS: readonly SchemaKey[] = ['contentList', 'usersList', 'tokenResponse', 'errorBody', 'listEnvelope', 'resourceObject', 'contentAttributes'];
/** The validators the k6 bundles get: export name (validatorName) → schema `$id`. */
export const K6_VALIDATOR_EXPORTS = exportsOf(K6_SCHEMAS);

/** The export names and `$id`s of the validators of `keys`. */
function exportsOf(keys: readonly SchemaKey[]): Record<string, string> {
  return Object.fromEntries(keys.map((key) => [validatorName(key), SCHEMA_IDS[key]]));
}

/**
 * For k6: AJV_OPTIONS without ajv-formats (its URL regex stops a k6 v0.47 bundle from loading), with non-`u` regexes (docs/load.md, "The k6 runtime"), and not
 * verbose (the k6 checks only count failures).
 */
const K6_AJV_OPTIONS: Options = { ...AJV_OPTIONS, verbose: false, unicodeRegExp: false };

/**
 * ES module source of ajv standalone validators, one export per entry of `exports` (a schema `$id`, with a JSON pointer for a sub-schema), each
 * `(data) => boolean` with `.errors` after a call. It may `require` tiny `ajv/dist/runtime/*` helpers (`minLength` counts code points with one): esbuild
 * inlines them.
 */
export function standaloneValidatorsSource(exports: Readonly<Record<string, string>> = K6_VALIDATOR_EXPORTS, options: Options = K6_AJV_OPTIONS): string {
  const standalone = new Ajv2020({ ...options, schemas: [...SCHEMAS], code: { source: true, esm: true } });
  return standaloneCode(standalone, { ...exports });
}

/**
 * The module that takes schemas/validators.ts's place in the mock's installable bundle: the same exports and Ajv options, standalone. Each validator gets the
 * `.schema` a compiled one carries, which check() names the schema by. It imports the schemas from schemas/registry.ts, so `resolveDir` is schemas/.
 */
export function mockValidatorsSource(): string {
  const keys = Object.keys(SCHEMA_IDS) as SchemaKey[];
  // Attribute names hold hyphens: the generated exports are numbered, the Map below names them.
  const exports = { ...exportsOf(keys), ...Object.fromEntries(CONTENT_ATTRIBUTE_NAMES.map((name, i) => [`contentAttribute${i}`, contentAttributeRef(name)])) };
  const lines = [
    standaloneValidatorsSource(exports, AJV_OPTIONS),
    `import { CONTENT_ATTRIBUTE_NAMES, SCHEMA_BY_KEY } from './registry.ts';`,
    ...keys.map((key) => `${validatorName(key)}.schema = SCHEMA_BY_KEY.${key};`),
    'const attributeSchemas = SCHEMA_BY_KEY.contentAttributes.properties;',
    `export const CONTENT_ATTRIBUTE_VALIDATORS = new Map(CONTENT_ATTRIBUTE_NAMES.map((name, i) => [name, [${CONTENT_ATTRIBUTE_NAMES.map((_, i) => `contentAttribute${i}`).join(', ')}][i]]));`,
    'for (const [name, validate] of CONTENT_ATTRIBUTE_VALIDATORS) validate.schema = attributeSchemas[name];',
  ];
  return `${lines.join('\n')}\n`;
}
