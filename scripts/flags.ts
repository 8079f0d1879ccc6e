/**
 * The integer flags of `npm run fuzz` and `npm run soak` (`--name value` or `--name=value`), read by
 * node:util parseArgs; a bad one exits 2 with a sentence naming the flag and its bounds.
 */
import { parseArgs as parseFlags } from 'node:util';

/** `--name value` flags of a script: integers only, each with a default and bounds; a bad one exits 2 with a sentence. */
export function integerFlags<K extends string>(argv: readonly string[], spec: Record<K, { default: number; min: number; max: number }>): Record<K, number> {
  const names = Object.keys(spec) as K[];
  let parsed: Record<string, string | undefined>;
  try {
    parsed = parseFlags({ args: [...argv], options: Object.fromEntries(names.map((k) => [k, { type: 'string' as const }])), strict: true }).values as Record<
      string,
      string | undefined
    >;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const arg = /'([^']+)'/.exec((error as Error).message)?.[1] ?? '?';
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      const name = arg.replace(/^--/, '').split(' ')[0] as K;
      usage(`--${name} must be an integer from ${spec[name]?.min} to ${spec[name]?.max}, got nothing.`);
    }
    usage(`Unknown argument "${arg}"; flags: ${names.map((k) => `--${k} <n>`).join(', ')}.`);
  }
  const values = {} as Record<K, number>;
  for (const name of names) {
    const { min, max, default: fallback } = spec[name];
    const text = parsed[name];
    if (text !== undefined && (!/^-?\d{1,15}$/.test(text) || Number(text) < min || Number(text) > max)) {
      usage(`--${name} must be an integer from ${min} to ${max}, got "${text}".`);
    }
    values[name] = text === undefined ? fallback : Number(text);
  }
  return values;
}

function usage(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}
