// The site, built once per test run into a temporary folder (vitest's globalSetup): building
// runs the conformance checker against a sandbox, which is too slow to repeat in every file that
// reads the result. The files read it with builtSite(); none of them writes into it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { buildSite } from '../src/build.mjs';

export default async function setup(project) {
  const site = await buildSite({ outDir: mkdtempSync(path.join(tmpdir(), 'payroll-docs-site-')) });
  project.provide('builtSite', site);
  return () => rmSync(site.outDir, { recursive: true, force: true });
}

/** What buildSite returned for this run's build (its outDir holds the files). */
export function builtSite() {
  return inject('builtSite');
}
