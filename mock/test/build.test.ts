/**
 * The installable mock (mock/build.ts), as an SDK developer gets it: built, packed with
 * `npm pack`, installed offline into an empty folder, started as `lp-mock`. Its ready line must be the
 * first thing on stdout, its node_modules small, its served OpenAPI document valid, and the build the
 * same bytes each time.
 */
import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { expect, test } from '@playwright/test';
import { BIN_FILE, BIN_NAME, buildMock, type MockBuild, PACKAGE_NAME } from '../build.ts';
import { httpsRequest, httpsToken } from './tls-client.ts';
import { ROOT } from '../../common/root.ts';

/** What an SDK developer's machine may spend on the installed package. */
const MAX_NODE_MODULES_BYTES = 10 * 1024 * 1024;
/** How long the installed bin may take to its ready line before the test gives up: a start that hangs, not a slow one. */
const START_BOUND_MS = 30_000;
const NPM_TIMEOUT_MS = 120_000;

let work: string;
let built: MockBuild;
/** The folder the package was installed into (by the test that packs it). */
let app: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'lp-build-mock-'));
  built = await buildMock({ root: ROOT, outdir: path.join(work, 'package') });
});

test.afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

function bytesUnder(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    total += entry.isDirectory() ? bytesUnder(full) : entry.isSymbolicLink() ? 0 : statSync(full).size;
  }
  return total;
}

function sha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

test('the package: one bundled bin with a shebang, no dependencies, node >= 20, the root version', () => {
  const manifest = JSON.parse(readFileSync(path.join(built.outdir, 'package.json'), 'utf8'));
  const root = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  expect(manifest).toMatchObject({ name: PACKAGE_NAME, version: root.version, bin: { [BIN_NAME]: BIN_FILE }, engines: { node: '>=20' } });
  expect(manifest.dependencies).toBeUndefined();
  const code = readFileSync(built.bin, 'utf8');
  expect(code.startsWith('#!/usr/bin/env node\n')).toBe(true);
  // Nothing of the build machine travels in the bundle.
  expect(code).not.toContain(ROOT);
  expect(statSync(built.bin).mode & 0o111).not.toBe(0);
  expect(readFileSync(path.join(built.outdir, 'README.md'), 'utf8')).toContain('npx lp-mock');
});

test('the build is deterministic: a second build gives the same bytes', async () => {
  const again = await buildMock({ root: ROOT, outdir: path.join(work, 'again') });
  for (const file of [BIN_FILE, 'package.json', 'README.md', 'LICENSE']) {
    expect(sha256(path.join(again.outdir, file)), file).toBe(sha256(path.join(built.outdir, file)));
  }
});

test('npm pack, npm install offline into an empty folder, lp-mock: the ready line first, the OpenAPI document valid', async () => {
  test.setTimeout(4 * NPM_TIMEOUT_MS);
  const packs = path.join(work, 'packs');
  mkdirSync(packs);
  const npmEnv = { ...process.env, npm_config_update_notifier: 'false' };
  const tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', packs], {
    cwd: built.outdir,
    encoding: 'utf8',
    timeout: NPM_TIMEOUT_MS,
    env: npmEnv,
  })
    .trim()
    .split('\n')
    .pop() as string;
  expect(tarball).toBe(`${PACKAGE_NAME}-${built.version}.tgz`);

  app = path.join(work, 'app');
  mkdirSync(app);
  writeFileSync(path.join(app, 'package.json'), '{"private": true}\n');
  // Offline: the package has no dependencies, so nothing but the tarball is needed.
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', path.join(packs, tarball)], { cwd: app, timeout: NPM_TIMEOUT_MS, env: npmEnv });
  const size = bytesUnder(path.join(app, 'node_modules'));
  console.log(`installed node_modules: ${(size / 1024).toFixed(0)} KiB`);
  expect(size).toBeLessThanOrEqual(MAX_NODE_MODULES_BYTES);

  const { firstLine, stop } = await startInstalled(['--auth-port', '0', '--api-port', '0']);
  try {
    const ready = JSON.parse(firstLine) as { authUrl: string; baseUrl: string; controlUrl: string; profile: string };
    expect(ready).toEqual({
      authUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      baseUrl: expect.any(String),
      controlUrl: `${ready.baseUrl}/_mock`,
      profile: 'strict',
    });

    const res = await fetch(`${ready.controlUrl}/openapi.json`);
    expect(res.status).toBe(200);
    const document = (await res.json()) as { servers: unknown };
    expect(document.servers).toEqual([{ url: ready.baseUrl, description: expect.any(String) }]);
    await expect(SwaggerParser.validate(document as never)).resolves.toBeTruthy();
  } finally {
    expect(await stop()).toBe(0);
  }
});

test('the installed lp-mock --tls --host-name serves both names over HTTPS with the CA file its ready line names', async () => {
  const { firstLine, stop } = await startInstalled(['--tls', '--host-name', 'mock.test']);
  try {
    const ready = JSON.parse(firstLine) as { authUrl: string; baseUrl: string; caFile: string };
    expect(ready.baseUrl).toMatch(/^https:\/\/api\.mock\.test:\d+$/);
    const ca = readFileSync(ready.caFile, 'utf8');
    const token = await httpsToken(ready.authUrl, ca);
    const page = await httpsRequest(`${ready.baseUrl}/api/v2/content?limit=1`, { ca, headers: { authorization: `Bearer ${token}` } });
    expect(page.status).toBe(200);
  } finally {
    expect(await stop()).toBe(0);
  }
});

/**
 * The installed bin started as a user starts it, up to its ready line (its first stdout line). How long
 * that takes is logged, not judged: `npm run bench`'s start figure measures it against a baseline.
 */
async function startInstalled(args: readonly string[]): Promise<{ firstLine: string; stop: () => Promise<number | null> }> {
  const started = performance.now();
  const child: ChildProcessWithoutNullStreams = spawn(path.join(app, 'node_modules', '.bin', BIN_NAME), args, {
    cwd: app,
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const stop = async () => {
    child.kill('SIGTERM');
    const kill = setTimeout(() => child.kill('SIGKILL'), 3_000);
    const code = await exited;
    clearTimeout(kill);
    return code;
  };
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  try {
    const firstLine = await new Promise<string>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`no line on stdout within ${START_BOUND_MS} ms; stderr: ${stderr}`)), START_BOUND_MS);
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk;
        if (!out.includes('\n')) return;
        clearTimeout(timer);
        resolve(out.slice(0, out.indexOf('\n')));
      });
      void exited.then((code) => reject(new Error(`lp-mock exited (${code}) before its ready line; stderr: ${stderr}`)));
    });
    console.log(`lp-mock ${args.join(' ')} printed its ready line ${(performance.now() - started).toFixed(0)} ms after spawn`);
    return { firstLine, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
