/**
 * The one redactor of the project, for the suite (harness/client/redact.ts keeps a worker's registry of it), the scripts and the k6 bundles
 * (load/lib/summary.ts): k6-safe, no Node APIs, no `u` regexes.
 *
 * Two layers: patterns that catch a credential by its place (an Authorization header, a form field, a token member of JSON), and the exact values known to be
 * secret (configured secrets and every token issued), which catch one wherever it lands.
 */

export const REDACTED = '[redacted]';

/** Shorter values are not registered: replacing every "a" of a message would hide the message. */
const MIN_SECRET_LENGTH = 6;

const PLACED: readonly [RegExp, string][] = [
  // Authorization: Bearer <token> / Basic <credentials>, in headers, logs and fetch call logs.
  [/\b(authorization["']?\s*[:=]\s*["']?)(?:bearer|basic)\s+[^\s"',;}]+/gi, `$1${REDACTED}`],
  // Bearer <token> in prose; 16 characters at least, so that "Bearer token expired" stays readable.
  [/\b(bearer\s+)[A-Za-z0-9\-._~+/]{16,}=*/gi, `$1${REDACTED}`],
  // Form and query fields: client_secret=…, access_token=…, refresh_token=…
  [/\b((?:client_secret|access_token|refresh_token|password)=)[^&\s"']+/gi, `$1${REDACTED}`],
  // JSON members: "client_secret": "…", "access_token": "…", "refresh_token": "…"
  [/("(?:client_secret|access_token|refresh_token|password)"\s*:\s*)"[^"]*"/gi, `$1"${REDACTED}"`],
];

export class Redactor {
  /** Values given to the constructor are registered at once. */
  constructor(...values: readonly (string | undefined)[]) {
    this.add(...values);
  }

  readonly #secrets = new Set<string>();

  /** Registers values that must never appear in output (tokens as they are issued, configured secrets). */
  add(...values: readonly (string | undefined)[]): void {
    for (const value of values) if (value !== undefined && value.length >= MIN_SECRET_LENGTH) this.#secrets.add(value);
  }

  /** The text with every known secret and every placed credential replaced by `[redacted]`. */
  redact(text: string): string {
    let out = text;
    // Longest first, so a secret that contains another is replaced whole.
    for (const secret of [...this.#secrets].sort((a, b) => b.length - a.length)) out = out.split(secret).join(REDACTED);
    for (const [pattern, replacement] of PLACED) out = out.replace(pattern, replacement);
    return out;
  }
}
