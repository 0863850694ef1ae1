// The checks on the repository's GitHub workflows and Dependabot's configuration. Each takes
// what it reads (parsed files, the README's text, …) and returns a list of problems, each a
// sentence that names the file and, where there is one, the line: an empty list passes.
import { validateWorkflow } from '@action-validator/core';
import YAML from 'yaml';

/** A YAML file, parsed: { name, text, doc, data, problems (the parse errors), where(node) (file:line) }. */
export function parseYamlFile(name, text) {
  const lineCounter = new YAML.LineCounter();
  const doc = YAML.parseDocument(text, { lineCounter, prettyErrors: false });
  const problems = [...doc.errors, ...doc.warnings].map((error) => `${name}:${lineCounter.linePos(error.pos[0]).line}: ${error.message}`);
  return {
    name,
    text,
    doc,
    data: problems.length === 0 ? doc.toJS() : null,
    problems,
    where: (node) => (node?.range ? `${name}:${lineCounter.linePos(node.range[0]).line}` : name),
  };
}

/**
 * The leaf messages of one action-validator error. A oneOf error holds the errors of each of
 * its branches: those of the branch the author meant, i.e. of the right type, with the fewest.
 */
function validatorMessages(error) {
  if (error.states?.length) {
    const ofTheType = error.states.filter((state) => !state.errors.some((inner) => inner.code === 'wrong_type' && inner.path === error.path));
    const [closest] = (ofTheType.length ? ofTheType : error.states).toSorted((a, b) => a.errors.length - b.errors.length);
    return closest.errors.flatMap(validatorMessages);
  }
  const at = error.location ? `line ${error.location.line}` : error.path || '/';
  return [`${at}: ${error.title}${error.detail ? ` (${error.detail})` : ''}`];
}

/** The workflow against GitHub's workflow schema (action-validator's, run as WebAssembly). */
export function schemaProblems(workflow) {
  if (workflow.problems.length) return workflow.problems;
  const { errors } = validateWorkflow(workflow.text);
  return [...new Set(errors.flatMap(validatorMessages))].map((message) => `${workflow.name}: not a valid workflow: ${message}`);
}

/** Every `uses:` of the workflow (steps and reusable-workflow jobs), with its node. */
function usesNodes(workflow) {
  const found = [];
  YAML.visit(workflow.doc, {
    Pair(_, pair) {
      if (YAML.isScalar(pair.key) && pair.key.value === 'uses' && YAML.isScalar(pair.value)) found.push(pair.value);
    },
  });
  return found;
}

const COMMIT_SHA = /^[0-9a-f]{40}$/;
const VERSION_COMMENT = /^v\d+\.\d+\.\d+$/;
const IMAGE_DIGEST = /@sha256:[0-9a-f]{64}$/;

/**
 * Every action that is not in this repository is pinned to a full commit SHA, with the
 * version it is in a comment (`uses: owner/repo@<40 hex> # v1.2.3`), which Dependabot keeps
 * up to date with the SHA; a container action is pinned to its image digest.
 */
export function pinningProblems(workflow) {
  const problems = [];
  for (const node of usesNodes(workflow)) {
    const uses = String(node.value);
    const at = workflow.where(node);
    if (uses.startsWith('./')) continue;
    if (uses.startsWith('docker://')) {
      if (!IMAGE_DIGEST.test(uses)) problems.push(`${at}: ${uses} is not pinned to an image digest (@sha256:…)`);
      continue;
    }
    const ref = uses.includes('@') ? uses.slice(uses.lastIndexOf('@') + 1) : '';
    if (!COMMIT_SHA.test(ref)) {
      problems.push(`${at}: ${uses} is not pinned to a full commit SHA`);
      continue;
    }
    const comment = node.comment?.trim() ?? '';
    if (!VERSION_COMMENT.test(comment)) problems.push(`${at}: ${uses} has no version comment (# vX.Y.Z)${comment ? `, but "# ${comment}"` : ''}`);
  }
  return problems;
}

const TOP_LEVEL_ALLOWED = { contents: 'read' };

/**
 * The workflow's own `permissions` exist and give at most `contents: read` (jobs widen
 * them where they need to).
 */
export function permissionProblems(workflow) {
  if (!workflow.data) return workflow.problems;
  if (!workflow.doc.has('permissions')) return [`${workflow.name}: no top-level permissions (give "contents: read" and widen per job)`];
  const at = workflow.where(workflow.doc.get('permissions', true));
  const permissions = workflow.data.permissions;
  if (permissions === null || typeof permissions !== 'object') {
    return [`${at}: top-level permissions "${permissions}" are wider than contents: read`];
  }
  return Object.entries(permissions)
    .filter(([scope, level]) => level !== 'none' && TOP_LEVEL_ALLOWED[scope] !== level)
    .map(([scope, level]) => `${at}: top-level permission "${scope}: ${level}" is wider than contents: read (widen it in the job that needs it)`);
}

/** The events that start a workflow (`on:` as a name, a list or a map). */
export function triggers(workflow) {
  const on = workflow.data?.on;
  if (typeof on === 'string') return [on];
  if (Array.isArray(on)) return on;
  return on && typeof on === 'object' ? Object.keys(on) : [];
}

/** Every string in the parsed file, keys included (comments are not part of it). */
function strings(value) {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([key, item]) => [key, ...strings(item)]);
  return [];
}

/**
 * A workflow that a pull request starts names no secret: a pull request from a fork must
 * not reach one. `pull_request_target` (which runs a fork's request with the repository's
 * secrets and a writing token) is refused outright.
 */
export function forkSecretProblems(workflow) {
  if (!workflow.data) return workflow.problems;
  const events = triggers(workflow);
  const problems = events.includes('pull_request_target') ? [`${workflow.name}: runs on pull_request_target, which gives a fork's pull request the repository's secrets`] : [];
  if (events.some((event) => event.startsWith('pull_request'))) {
    const named = strings(workflow.data).filter((text) => /\bsecrets\s*(\.|\[)/.test(text));
    for (const text of new Set(named)) problems.push(`${workflow.name}: a pull request starts it, yet it names a secret: ${text.trim()}`);
    const inherits = Object.entries(workflow.data.jobs ?? {}).filter(([, job]) => job?.secrets === 'inherit');
    for (const [id] of inherits) problems.push(`${workflow.name}: a pull request starts it, yet job ${id} passes on every secret (secrets: inherit)`);
  }
  return problems;
}

/** A shell script without its comments (a `#` at the start of a line or after a blank). */
const withoutComments = (script) => script.replace(/(^|\s)#.*$/gm, '$1');

/**
 * The pnpm commands of a shell script, in order, as written: `npx -y pnpm@<v> <args>` or
 * `pnpm <args>`, each up to the next `&&`, `||`, `;`, `|`, `)`, `}` or line end.
 */
export function pnpmCommands(script) {
  const pattern = /(?:\bnpx\s+(?:(?:-y|--yes)\s+)?pnpm@[\w.+-]+|(?<![\w/.@-])pnpm)(?:[ \t]+[^\s;&|)}]+)*/g;
  return [...withoutComments(script).matchAll(pattern)].map((match) => match[0].replace(/\s+/g, ' ').trim());
}

/** The fenced code blocks of a README section (`## <title>` up to the next `## `). */
export function sectionBlocks(readme, title) {
  const start = readme.indexOf(`\n## ${title}\n`);
  if (start < 0) return [];
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)].map((match) => match[1]);
}

/** The README's test command: the second block of its quick start. */
export function readmeTestCommand(readme) {
  return sectionBlocks(readme, 'Quick start')[1]?.trim() ?? '';
}

const RUNS_CI_SCRIPT = /(^|[\s;&|(])(bash\s+|sh\s+)?(\.\/)?\.ci\/run\b/m;

/** The `run:` scripts of every step of every job, with their nodes. */
function runSteps(workflow) {
  const found = [];
  const jobs = workflow.doc.get('jobs');
  for (const job of YAML.isMap(jobs) ? jobs.items : []) {
    const steps = YAML.isMap(job.value) ? job.value.get('steps') : null;
    for (const step of YAML.isSeq(steps) ? steps.items : []) {
      const run = YAML.isMap(step) ? step.get('run', true) : null;
      if (YAML.isScalar(run)) found.push({ script: String(run.value), node: run });
    }
  }
  return found;
}

const sameCommands = (a, b) => a.length === b.length && a.every((command, index) => command === b[index]);
const listed = (commands) => (commands.length ? commands.map((command) => `"${command}"`).join(' then ') : 'no pnpm command');

/**
 * CI runs the README's test command on pull requests and on main: `.ci/run` runs exactly
 * the README's command, and the CI workflow runs `.ci/run` or that command, and no other pnpm
 * command. `ci` is the parsed workflow, `readme` and `ciRun` the files' text.
 */
export function ciCommandProblems({ ci, readme, ciRun }) {
  if (!ci.data) return ci.problems;
  const expected = pnpmCommands(readmeTestCommand(readme));
  if (expected.length === 0) return ['README.md: the quick start has no test command (its second fenced block)'];
  const problems = [];
  const script = pnpmCommands(ciRun);
  if (!sameCommands(script, expected)) problems.push(`.ci/run runs ${listed(script)}, the README's test command is ${listed(expected)}`);

  const events = triggers(ci);
  const pushBranches = ci.data.on?.push?.branches;
  if (!events.includes('pull_request')) problems.push(`${ci.name}: does not run on pull_request`);
  if (!events.includes('push') || (Array.isArray(pushBranches) && !pushBranches.includes('main'))) problems.push(`${ci.name}: does not run on a push to main`);

  const runs = runSteps(ci);
  const commands = runs.flatMap(({ script: text }) => [...(RUNS_CI_SCRIPT.test(text) ? script : []), ...pnpmCommands(text)]);
  if (!sameCommands(commands, expected)) {
    const at = runs.length ? ci.where(runs[0].node) : ci.name;
    problems.push(`${at}: the workflow runs ${listed(commands)}, the README's test command is ${listed(expected)}`);
  }
  return problems;
}

const INTERVALS = new Set(['daily', 'weekly', 'monthly', 'quarterly', 'semiannually', 'yearly', 'cron']);

/** Dependabot updates the npm packages and the actions, from the repository root. */
export function dependabotProblems(config, ecosystems = ['npm', 'github-actions']) {
  if (!config.data) return config.problems.length ? config.problems : [`${config.name}: empty`];
  const problems = [];
  if (config.data.version !== 2) problems.push(`${config.name}: version is ${config.data.version}, Dependabot's configuration is version 2`);
  const updates = Array.isArray(config.data.updates) ? config.data.updates : [];
  for (const ecosystem of ecosystems) {
    const entry = updates.find((update) => update?.['package-ecosystem'] === ecosystem);
    if (!entry) {
      problems.push(`${config.name}: no update for ${ecosystem}`);
      continue;
    }
    const directories = [entry.directory, ...(entry.directories ?? [])].filter(Boolean);
    if (!directories.includes('/')) problems.push(`${config.name}: the ${ecosystem} update does not cover the repository root (directory: /)`);
    if (!INTERVALS.has(entry.schedule?.interval)) problems.push(`${config.name}: the ${ecosystem} update has no schedule interval Dependabot knows (${entry.schedule?.interval})`);
  }
  return problems;
}

/** The jobs' steps that use an action (`owner/repo`, any ref), with their job. */
function stepsUsing(workflow, action) {
  return Object.entries(workflow.data?.jobs ?? {}).flatMap(([id, job]) =>
    (job?.steps ?? []).map((step, index) => ({ id, job, step, index })).filter(({ step }) => typeof step?.uses === 'string' && step.uses.split('@')[0] === action),
  );
}

/**
 * The release workflow releases the one way the repository does: changesets/action's version
 * and publish commands are the release steps (`steps`, pnpm's arguments, as
 * tools/registry-roundtrip runs them) and the README's release section names them; the API
 * policy check runs before; the publish asks for provenance and may get an OIDC identity.
 */
export function releaseProblems({ release, readme, steps }) {
  if (!release.data) return release.problems;
  const version = ['pnpm', ...steps.version].join(' ');
  const publish = ['pnpm', ...steps.publish].join(' ');
  const problems = [];
  const releasing = sectionBlocks(readme, 'Releasing').flatMap(pnpmCommands);
  for (const command of [version, publish]) {
    if (!releasing.includes(command)) problems.push(`README.md: the release section does not run "${command}"`);
  }
  const found = stepsUsing(release, 'changesets/action');
  if (found.length !== 1) return [...problems, `${release.name}: ${found.length} changesets/action steps, expected one`];
  const [{ job, step, index }] = found;
  if (step.with?.version !== version) problems.push(`${release.name}: changesets/action versions with "${step.with?.version}", the release is "${version}"`);
  if (step.with?.publish !== publish) problems.push(`${release.name}: changesets/action publishes with "${step.with?.publish}", the release is "${publish}"`);
  const earlier = job.steps.slice(0, index).map((step) => (typeof step.run === 'string' ? step.run : ''));
  const before = earlier.flatMap(pnpmCommands);
  if (!before.includes('pnpm api:check')) problems.push(`${release.name}: "pnpm api:check" does not run before changesets/action`);
  // Provenance needs each manifest's repository.url to be the repository the workflow runs in.
  if (!earlier.some((run) => /api-policy(\.mjs)? repository\b/.test(run))) problems.push(`${release.name}: the manifests are not given this repository's address (api-policy repository) before changesets/action`);
  const provenance = { ...release.data.env, ...job.env, ...step.env }.NPM_CONFIG_PROVENANCE;
  if (String(provenance) !== 'true' && !/--provenance\b/.test(step.with?.publish ?? '')) problems.push(`${release.name}: the publish does not ask for npm provenance (NPM_CONFIG_PROVENANCE: true)`);
  if (job.permissions?.['id-token'] !== 'write') problems.push(`${release.name}: the publishing job lacks "id-token: write" (provenance needs the OIDC identity)`);
  return problems;
}
