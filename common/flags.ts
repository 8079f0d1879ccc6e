/**
 * The command lines of the npm scripts: `--help` answered before any flag is read, integer flags read by node:util parseArgs with usage text generated from
 * their table (a bad one exits 2 naming the flag and its bounds), `runMain`.
 */
import { type ParseArgsConfig, parseArgs as parseFlags } from 'node:util';

/**
 * Runs a command's `main` and exits with the code it returns. What it throws ends the command: with `onError` a prefix, that prefix and the message on stderr,
 * exit `code`; with a function, what it reports and returns.
 */
export function runMain(main: () => Promise<number>, onError: string | ((error: unknown) => number), code = 1): void {
  main().then(
    (exit) => process.exit(exit),
    (error: unknown) => {
      if (typeof onError === 'function') process.exit(onError(error));
      process.stderr.write(`${onError}${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(code);
    },
  );
}

/** How a user types `npm run <script>`: `npm run <script> --` in a clone, `lp-contract <script>` from the package, whose build defines LP_SUITE_COMMAND. */
export function commandName(script: string): string {
  const installed = process.env.LP_SUITE_COMMAND;
  return installed === undefined ? `npm run ${script} --` : `${installed} ${script}`;
}

/** What a sentence refusing a command line of `npm run <script>` ends with. */
export function helpPointer(script: string): string {
  return ` (${commandName(script)} --help)`;
}

/** Prints `usage` on stdout and exits 0 on `--help` or `-h` before any `--` in `args` (after it, parseArgs reads every argument as a positional). */
export function answerHelp(args: readonly string[], usage: string): void {
  const end = args.indexOf('--');
  const flags = end === -1 ? args : args.slice(0, end);
  if (!flags.includes('--help') && !flags.includes('-h')) return;
  process.stdout.write(`${usage}\n`);
  process.exit(0);
}

/** For a script that reads no argument: `--help` answered, any other argument refused with the sentence returned. */
export function refuseArguments(script: string, name: string, args: readonly string[], usage: string): string | undefined {
  answerHelp(args, usage);
  return args.length === 0 ? undefined : `${name}: takes no arguments, got ${args.map((arg) => `"${arg}"`).join(' ')}.${helpPointer(script)}`;
}

/** node:util parseArgs for `npm run <script>`, `--help` answered first; a refusal thrown with the help pointer. */
export function parseCommandLine<T extends ParseArgsConfig & { args: readonly string[] }>(
  script: string,
  usage: string,
  config: T,
): ReturnType<typeof parseFlags<T>> {
  answerHelp(config.args, usage);
  try {
    return parseFlags(config);
  } catch (error) {
    throw new Error(`${(error as Error).message}${helpPointer(script)}`, { cause: error });
  }
}

/** One integer flag: its default, its bounds, and the line `--help` shows for it (`shown` replaces the default there). */
export type IntegerFlag = { readonly default: number; readonly min: number; readonly max: number; readonly about: string; readonly shown?: string };

/** The usage text of `npm run <script>`'s integer flags: one line each, with its bounds and its default. */
function integerUsage(script: string, spec: Readonly<Record<string, IntegerFlag>>): string {
  const rows: Array<[string, string]> = [
    ...Object.entries(spec).map(([name, flag]): [string, string] => [
      `--${name} <n>`,
      `${flag.about}, ${flag.min} to ${flag.max} (default ${flag.shown ?? flag.default})`,
    ]),
    ['--help, -h', 'this text'],
  ];
  const width = Math.max(...rows.map(([left]) => left.length)) + 2;
  return [`Usage: npm run ${script} -- [flags]`, '', ...rows.map(([left, right]) => `  ${left.padEnd(width)}${right}`)].join('\n');
}

/** `--name value` flags of `npm run <script>`: integers only, each with a default and bounds; `--help` lists them; a bad one exits 2 with a sentence. */
export function integerFlags<K extends string>(script: string, argv: readonly string[], spec: Record<K, IntegerFlag>): Record<K, number> {
  const names = Object.keys(spec) as K[];
  answerHelp(argv, integerUsage(script, spec));
  const options = Object.fromEntries(names.map((k) => [k, { type: 'string' as const }]));
  let parsed: Record<string, string | undefined>;
  try {
    parsed = parseFlags({ args: [...argv], options, strict: true }).values as Record<string, string | undefined>;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const arg = /'([^']+)'/.exec((error as Error).message)?.[1] ?? '?';
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      const name = arg.replace(/^--/, '').split(' ')[0] as K;
      usage(`--${name} must be an integer from ${spec[name]?.min} to ${spec[name]?.max}, got nothing.`);
    }
    usage(`Unknown argument "${arg}"; flags: ${names.map((k) => `--${k} <n>`).join(', ')}.${helpPointer(script)}`);
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

/** Ends a command refused for its command line or settings: the sentence on stderr, exit 2. */
export function usage(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}
