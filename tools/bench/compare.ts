/**
 * `npm run bench -- --compare`, reported, never judged: the content page, mock ÷ bare node:http with autocannon as the load generator (a check of ours), and
 * mock ÷ Prism (`prism mock` on the OpenAPI document, its one-item example); both installed on first use into tools/bench/.cache, out of the project's install.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildOpenApiDocument } from '../../schemas/openapi.ts';
import { ENDPOINTS } from '../../contracts/endpoints.ts';
import { ROOT } from '../../common/root.ts';
import { type NodeChild, startNode } from '../../mock/test/mock-process.ts';
import { repeat, runLoad } from './load.ts';

const CACHE = path.join(ROOT, 'tools', 'bench', '.cache');
const PACKAGES = ['@stoplight/prism-cli@^5.14.2', 'autocannon@^9.0.0'];
export const CONTENT_PATH = `${ENDPOINTS.listContent.path}?limit=100`;

type AutocannonResult = { requests: { average: number }; non2xx: number; errors: number };
type Autocannon = (o: { url: string; headers: Record<string, string>; connections: number; duration: number }) => Promise<AutocannonResult>;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Both comparisons, against the servers of the content figure the bench started (their origins) and the headers it asks with. */
export async function compare(size: { seconds: number; rounds: number }, servers: { mock: string; bare: string; headers: Readonly<Record<string, string>> }) {
  if (!PACKAGES.every((p) => existsSync(path.join(CACHE, 'node_modules', p.slice(0, p.lastIndexOf('@')))))) {
    console.log(`  installing ${PACKAGES.join(' and ')} into tools/bench/.cache (git-ignored; not part of the project's install)`);
    execFileSync('npm', ['install', '--prefix', CACHE, '--no-audit', '--no-fund', ...PACKAGES], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
  // From the cache folder, not the project's node_modules: a dynamic import of its path.
  const autocannon = ((await import(path.join(CACHE, 'node_modules', 'autocannon', 'autocannon.js'))) as { default: Autocannon }).default;
  const { mock, bare, headers } = servers;
  const cannon = async (origin: string) => {
    const r = await autocannon({ url: `${origin}${CONTENT_PATH}`, headers: { ...headers }, connections: 32, duration: size.seconds });
    if (r.non2xx > 0 || r.errors > 0) throw new Error(`autocannon against ${origin}: ${r.non2xx} non-2xx, ${r.errors} errors`);
    return r.requests.average;
  };
  await cannon(bare);
  await cannon(mock);
  const ratios: string[] = [];
  for (let i = 0; i < size.rounds; i++) {
    const rate = new Map<string, number>();
    for (const origin of i % 2 === 0 ? [bare, mock] : [mock, bare]) rate.set(origin, await cannon(origin));
    const [m, b] = [rate.get(mock) as number, rate.get(bare) as number];
    ratios.push(`${(m / b).toFixed(2)} (${Math.round(m)} vs ${Math.round(b)} req/s)`);
  }
  console.log(`  content page with autocannon (32 connections, rounds of ${size.seconds} s, ABBA), mock ÷ bare node:http per round: ${ratios.join(', ')}`);
  const scratch = mkdtempSync(path.join(tmpdir(), 'lp-bench-compare-'));
  let prism: NodeChild | undefined;
  try {
    const document = path.join(scratch, 'openapi.json');
    writeFileSync(document, JSON.stringify(buildOpenApiDocument()));
    const port = await freePort();
    const bin = path.join(CACHE, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');
    // Prism prints no line worth waiting for: a wrapper prints one once a probe gets its answer.
    const wrapper = `const p=require('node:child_process').spawn(process.execPath,${JSON.stringify([bin, 'mock', document, '-h', '127.0.0.1', '-p', String(port)])},{stdio:'ignore'});process.on('SIGTERM',()=>{p.kill();process.exit(0)});const t=setInterval(()=>fetch('http://127.0.0.1:${port}${CONTENT_PATH}',{headers:{authorization:'Bearer x'}}).then(r=>{if(r.status===200){clearInterval(t);console.log('{}')}},()=>{}),250);`;
    prism = await startNode('Prism', ['-e', wrapper]);
    const rate = async (origin: string) => {
      const t = await runLoad({ connections: 32, seconds: size.seconds, script: repeat({ method: 'GET', url: `${origin}${CONTENT_PATH}`, headers }) });
      return (t.statuses.get(200) ?? 0) / t.seconds;
    };
    await rate(`http://127.0.0.1:${port}`);
    const [m, p] = [await rate(mock), await rate(`http://127.0.0.1:${port}`)];
    console.log(
      `  content page, mock ÷ Prism (its one-item example, about 3.5 kB, against 100 items): ${(m / p).toFixed(1)} (${Math.round(m)} vs ${Math.round(p)} req/s)`,
    );
  } finally {
    await prism?.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}
