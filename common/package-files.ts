/** What the package builds (mock/build.ts, harness/package/build.ts) share: the root manifest (version, licence, dependency ranges), the files each ships. */
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export type RootManifest = { readonly version: string; readonly license: string; readonly devDependencies: Readonly<Record<string, string>> };

/** The project's package.json; `outdir` emptied, so that a file of an older build (a renamed one) never ships with the new one. */
export function startPackage(root: string, outdir: string): RootManifest {
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  return JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as RootManifest;
}

/** The package's package.json, its README (copied from `readme`) and its LICENSE text. */
export function writePackageFiles(outdir: string, manifest: Record<string, unknown>, readme: string, license: string): void {
  writeFileSync(path.join(outdir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  copyFileSync(readme, path.join(outdir, 'README.md'));
  writeFileSync(path.join(outdir, 'LICENSE'), license);
}
