// A real npm registry for the round trip: Verdaccio in a temporary folder, on loopback, on a
// free port, with no uplinks, so that what is published stays on this machine and what is
// installed from it under @payroll-api is exactly what was published.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** Verdaccio's configuration: local storage, htpasswd users, no uplinks, no web UI. */
export function registryConfig(dir) {
  return [
    `storage: ${JSON.stringify(path.join(dir, 'storage'))}`,
    'auth:',
    '  htpasswd:',
    `    file: ${JSON.stringify(path.join(dir, 'htpasswd'))}`,
    // Nothing is fetched from another registry: a package that was not published here is a 404.
    'uplinks: {}',
    'packages:',
    "  '**':",
    '    access: $all',
    '    publish: $authenticated',
    '    unpublish: $authenticated',
    'web:',
    '  enable: false',
    // Errors only: a slow password check on a busy machine is logged as a warning.
    'log: { type: stdout, format: json, level: error }',
    '',
  ].join('\n');
}

/**
 * Starts Verdaccio in `dir`, in this process, on a port the system chooses, and adds a
 * publishing user. Returns { url, port, npmrc, stop }: `npmrc` is a user config holding the
 * token for this registry only (npm_config_userconfig).
 */
export async function startRegistry(dir) {
  const configFile = path.join(dir, 'config.yaml');
  writeFileSync(configFile, registryConfig(dir));
  const { runServer } = require('verdaccio');
  const server = await runServer(configFile);
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address();
  const url = `http://127.0.0.1:${port}/`;
  const stop = () => new Promise((resolve) => server.close(() => resolve()).closeAllConnections?.());

  // `npm adduser` in one request: Verdaccio answers with the token.
  const response = await fetch(`${url}-/user/org.couchdb.user:release`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'release', password: `release-${port}-${Date.now()}` }),
  });
  const { token } = await response.json();
  if (!response.ok || !token) throw new Error(`verdaccio refused the release user (${response.status})`);
  const npmrc = path.join(dir, 'release.npmrc');
  writeFileSync(npmrc, `//127.0.0.1:${port}/:_authToken=${token}\n`);
  return { url, port, npmrc, stop };
}

/** The registry's document of a package (404: null). */
export async function packument(registryUrl, name) {
  const response = await fetch(`${registryUrl}${name.replace('/', '%2f')}`, { signal: AbortSignal.timeout(10_000) });
  if (response.status === 404) return null;
  if (!response.ok) throw new Error(`GET ${name} from the registry: ${response.status}`);
  return response.json();
}

/** The published tarball of name@version, as bytes. */
export async function tarball(registryUrl, name, version) {
  const doc = await packument(registryUrl, name);
  const url = doc?.versions?.[version]?.dist?.tarball;
  if (!url) throw new Error(`${name}@${version} is not in the registry`);
  const response = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  if (!response.ok) throw new Error(`GET ${url}: ${response.status}`);
  return Buffer.from(await response.arrayBuffer());
}
