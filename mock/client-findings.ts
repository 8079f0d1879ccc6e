/**
 * Client findings: the mock judges its CALLERS by what the API document asks of a client, through the one judge of those rules (ClientConduct,
 * contracts/rules/client.ts), and keeps what it finds for SDK developers (GET /_mock/findings, JUnit, a `--log` line each). A finding never changes an answer.
 *
 * It wraps each endpoint's handler outermost (the judge sees what the client saw) and hands the judge each answered request as an Exchange. Findings past the
 * cap are only counted; the judge's own tables are bounded too.
 */
import { type Endpoint, ENDPOINTS, type EndpointId } from '../contracts/endpoints.ts';
import { CLIENT_RULE_IDS, ClientConduct, type ClientRuleId } from '../contracts/rules/client.ts';
import { findingLine, junitXml } from '../common/report.ts';
import type { Exchange } from '../contracts/rules/exchange.ts';
import type { Finding } from '../contracts/rules/finding.ts';
import type { Clock } from './clock.ts';
import { CONTROL_PREFIX, type ControlRoute } from './control.ts';
import { bodyText, headerOf, type Replies, type Reply } from './http.ts';
import type { Exchange as Request, RouteHandler } from './routes.ts';

/** Findings kept in full; past this only the counts grow. */
const MAX_FINDINGS = 1000;

/** A finding of a client rule, and the client it judged (its client_id, `(unknown)` or `(other clients)`). */
type FindingOfClient = Finding & { readonly clientId: string };

export interface FindingsReport {
  readonly findings: readonly FindingOfClient[];
  /** Every finding, kept or not, by rule. */
  readonly counts: Readonly<Record<ClientRuleId, number>>;
  readonly total: number;
  /** Findings counted but not kept (past MAX_FINDINGS). */
  readonly dropped: number;
  /** Client_ids the mock has judged. */
  readonly clients: readonly string[];
}

type Log = (line: string) => void;

/** A request as the judge reads it (the judge asks for no other header). */
class Asked {
  constructor(
    readonly method: string,
    readonly url: string,
    readonly route: Request,
  ) {}

  header(name: string): string | undefined {
    return name === 'authorization' ? this.route.authorization : name === 'content-type' ? this.route.contentType : undefined;
  }

  get body(): string {
    return this.route.body.toString('utf8');
  }
}

/**
 * An answered request as the judge reads it (classes: closures made per request cost more than the judging). Bodies are read only when asked: a token reply
 * whole, a list page by its links alone (parsing its items would cost more than answering). The mock answers at once: a request's time is its answer's.
 */
class Answered implements Exchange {
  readonly origin: Exchange['origin'];
  readonly list: Exchange['list'];
  readonly request: Asked;
  readonly status: number;

  constructor(
    { method, path, origin, paginated, resourceType }: Endpoint,
    route: Request,
    readonly reply: Reply,
    readonly sentMs: number,
    readonly receivedMs: number,
  ) {
    this.origin = origin;
    this.list = paginated ? resourceType : undefined;
    this.request = new Asked(method, route.search === '' ? path : `${path}?${route.search}`, route);
    this.status = reply.status;
  }

  header(name: string): string | undefined {
    return headerOf(this.reply.headers, name);
  }

  get body(): unknown {
    const body = this.reply.body;
    // A list page is read for links.next alone, in the text before its items: the mock writes it unescaped, so it is the text between its quotes.
    const head = typeof body === 'string' ? undefined : body[0];
    if (head !== undefined && !head.includes('\\')) {
      const at = head.indexOf('"next":"');
      return { links: at < 0 ? {} : { next: head.slice(at + 8, head.indexOf('"', at + 8)) } };
    }
    try {
      return JSON.parse(head === undefined ? (body as string) : `${head}]}`);
    } catch {
      return undefined;
    }
  }

  get text(): string {
    return bodyText(this.reply.body);
  }
}

export class ClientFindings {
  #conduct = new ClientConduct();
  #findings: FindingOfClient[] = [];
  /** Per client, its findings by rule (for the JUnit form). */
  #byClient = new Map<string, Map<ClientRuleId, number>>();
  #total = 0;

  constructor(private readonly o: { clock: Clock; log?: Log | undefined; maxFindings?: number }) {}

  /** `inner` with this endpoint's requests and replies judged; the reply is returned unchanged. */
  observe(endpoint: EndpointId, inner: RouteHandler): RouteHandler {
    return (request) => {
      const atMs = this.o.clock.now();
      const reply = inner(request);
      for (const f of this.#conduct.observe(new Answered(ENDPOINTS[endpoint], request, reply, atMs, atMs))) this.#keep(f);
      return reply;
    };
  }

  report(): FindingsReport {
    const counts = Object.fromEntries(CLIENT_RULE_IDS.map((id) => [id, 0])) as Record<ClientRuleId, number>;
    for (const rules of this.#byClient.values()) for (const [rule, count] of rules) counts[rule] += count;
    return { findings: this.#findings.slice(), counts, total: this.#total, dropped: this.#total - this.#findings.length, clients: this.#conduct.clients() };
  }

  /** JUnit XML: a testsuite per client_id judged, a testcase per client rule, a failure per finding kept (and one saying how many more were only counted). */
  junit(): string {
    const suites = this.#conduct.clients().map((client) => ({
      name: `client ${client}`,
      cases: CLIENT_RULE_IDS.map((rule) => {
        const count = this.#byClient.get(client)?.get(rule) ?? 0;
        const kept = count === 0 ? [] : this.#findings.filter((f) => f.rule === rule && f.clientId === client);
        const failures = kept.map((f) => ({ type: rule, message: f.got, text: `${iso(f.atMs ?? 0)} ${findingLine(f)}` }));
        if (count > kept.length) failures.push({ type: rule, message: `${count - kept.length} more findings were counted but not kept`, text: '' });
        return { classname: `client.${client}`, name: rule, failures };
      }),
    }));
    return junitXml('client findings', suites);
  }

  clear(): void {
    this.#conduct = new ClientConduct();
    this.#findings = [];
    this.#byClient = new Map();
    this.#total = 0;
  }

  #keep(f: Finding): void {
    const rule = f.rule as ClientRuleId;
    const client = this.#conduct.clientId;
    this.#total++;
    const counts = this.#byClient.get(client) ?? new Map<ClientRuleId, number>();
    this.#byClient.set(client, counts.set(rule, (counts.get(rule) ?? 0) + 1));
    if (this.#findings.length < (this.o.maxFindings ?? MAX_FINDINGS)) this.#findings.push({ ...f, clientId: client });
    this.o.log?.(`client-finding ${rule} client=${client} at=${iso(f.atMs ?? 0)} ${f.request}: ${f.got}`);
  }
}

/** The control calls of the findings: GET /_mock/findings (JSON, or JUnit with ?format=junit) and GET /_mock/findings.xml. */
export function findingsRoutes(findings: ClientFindings, replies: Replies): Record<string, ControlRoute> {
  const junit = (): Reply => {
    const text = findings.junit();
    return { status: 200, headers: ['Content-Type', 'application/xml; charset=utf-8', 'Content-Length', String(Buffer.byteLength(text))], body: text };
  };
  return {
    [`${CONTROL_PREFIX}/findings`]: {
      methods: ['GET'],
      respond: (request) =>
        new URLSearchParams(request.search ?? '').get('format') === 'junit' ? junit() : replies.json(200, JSON.stringify(findings.report())),
    },
    [`${CONTROL_PREFIX}/findings.xml`]: { methods: ['GET'], respond: junit },
  };
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
