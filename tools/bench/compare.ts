/**
 * `npm run bench -- --compare`: what only a comparison needs, kept out of the project's install. Prism
 * (another mock of an OpenAPI document) and autocannon (the load generator of the independent
 * measurement the content figure repeats) are installed into tools/bench/.cache on first use
 * (git-ignored; delete it to free the space). Reported, never judged:
 *
 *   - the content page, mock ÷ bare node:http, with autocannon as the load generator instead of this
 *     bench's node:http one (a check of the load generator);
 *   - the content page, mock ÷ Prism (`prism mock` on contracts/openapi.ts's document; Prism checks
 *     only that a bearer token is present and answers its one-item example).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildOpenApiDocument } from '../../contracts/openapi.ts';
import { ENDPOINTS } from '../../contracts/endpoints.ts';
import { DEFAULT_CLIENTS } from '../../mock/clients.ts';
import { type Child, repeat, ROOT, runLoad, startNode } from './load.ts';

const CACHE = path.join(ROOT, 'tools', 'bench', '.cache');
const PACKAGES = ['@stoplight/prism-cli@^5.14.2', 'autocannon@^9.0.0'];
const CONTENT_PATH = `${ENDPOINTS.listContent.path}?limit=100`;

type Autocannon = (o: { url: string; headers: Record<string, string>; connections: number; duration: number }) => Promise<{
  requests: { average: number };
  non2xx: number;
  errors: number;
}>;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function compare(size: { seconds: number; rounds: number }, print: (line: string) => void): Promise<void> {
  print('\n== compare (reported, not judged)');
  if (!PACKAGES.every((p) => existsSync(path.join(CACHE, 'node_modules', p.slice(0, p.lastIndexOf('@')))))) {
    print(`  installing ${PACKAGES.join(' and ')} into tools/bench/.cache (git-ignored; not part of the project's install)`);
    execFileSync('npm', ['install', '--prefix', CACHE, '--no-audit', '--no-fund', ...PACKAGES], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
  // From the cache folder, not the project's node_modules: a dynamic import of its path.
  const autocannon = ((await import(path.join(CACHE, 'node_modules', 'autocannon', 'autocannon.js'))) as { default: Autocannon }).default;
  const scratch = mkdtempSync(path.join(tmpdir(), 'lp-bench-compare-'));
  const children: Child[] = [];
  try {
    const mock = await startNode('the mock', ['--import', 'tsx', 'mock/cli.ts', '--rate', '0', '--items', '10000']);
    children.push(mock);
    const { authUrl, baseUrl } = JSON.parse(mock.ready) as { authUrl: string; baseUrl: string };
    const org = DEFAULT_CLIENTS[0] as { id: string; secret: string };
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: org.id, client_secret: org.secret, scope: 'content:read' });
    const token = ((await (await fetch(`${authUrl}${ENDPOINTS.token.path}`, { method: 'POST', body: form })).json()) as { access_token: string }).access_token;
    const headers = { authorization: `Bearer ${token}` };
    const res = await fetch(`${baseUrl}${CONTENT_PATH}`, { headers });
    const replyHeaders: string[] = [];
    for (const [name, value] of res.headers) if (!['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(name)) replyHeaders.push(name, value);
    const replies = path.join(scratch, 'replies.json');
    writeFileSync(replies, JSON.stringify({ default: { status: res.status, headers: replyHeaders, body: await res.text() } }));
    const bare = await startNode('the bare node:http server', ['--import', 'tsx', 'tools/bench/bare-server.ts', replies]);
    children.push(bare);
    const bareUrl = (JSON.parse(bare.ready) as { url: string }).url;

    const cannon = async (url: string) => {
      const r = await autocannon({ url: `${url}${CONTENT_PATH}`, headers, connections: 32, duration: size.seconds });
      if (r.non2xx > 0 || r.errors > 0) throw new Error(`autocannon against ${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
      return r.requests.average;
    };
    await cannon(bareUrl);
    await cannon(baseUrl);
    const ratios: string[] = [];
    for (let i = 0; i < size.rounds; i++) {
      const r: Record<string, number> = {};
      for (const [side, url] of i % 2 === 0
        ? [
            ['bare', bareUrl],
            ['mock', baseUrl],
          ]
        : [
            ['mock', baseUrl],
            ['bare', bareUrl],
          ])
        r[side as string] = await cannon(url as string);
      ratios.push(`${((r.mock as number) / (r.bare as number)).toFixed(2)} (${Math.round(r.mock as number)} vs ${Math.round(r.bare as number)} req/s)`);
    }
    print(`  content page with autocannon (32 connections, ${size.seconds} s rounds, ABBA), mock ÷ bare node:http per round: ${ratios.join(', ')}`);

    const document = path.join(scratch, 'openapi.json');
    writeFileSync(document, JSON.stringify(buildOpenApiDocument()));
    const port = await freePort();
    const prismBin = path.join(CACHE, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');
    // Prism prints no line worth waiting for; a wrapper prints one once a probe gets its answer.
    const probe = `const {spawn}=require('node:child_process');const p=spawn(process.execPath,${JSON.stringify([prismBin, 'mock', document, '-h', '127.0.0.1', '-p', String(port)])},{stdio:'ignore'});process.on('SIGTERM',()=>{p.kill();process.exit(0)});const t=setInterval(()=>fetch('http://127.0.0.1:${port}${CONTENT_PATH}',{headers:{authorization:'Bearer x'}}).then(r=>{if(r.status===200){clearInterval(t);console.log('{}')}},()=>{}),250);`;
    children.push(await startNode('Prism', ['-e', probe]));
    const prismUrl = `http://127.0.0.1:${port}`;
    const rate = async (url: string) => {
      const t = await runLoad({ connections: 32, seconds: size.seconds, script: repeat({ method: 'GET', url: `${url}${CONTENT_PATH}`, headers }) });
      return (t.statuses.get(200) ?? 0) / t.seconds;
    };
    await rate(prismUrl);
    const [m, p] = [await rate(baseUrl), await rate(prismUrl)];
    print(
      `  content page, mock ÷ Prism (Prism's one-item example, about 3.5 kB, against the mock's 100 items): ${(m / p).toFixed(1)} (${Math.round(m)} vs ${Math.round(p)} req/s)`,
    );
  } finally {
    await Promise.all(children.map((c) => c.stop()));
    rmSync(scratch, { recursive: true, force: true });
  }
}
