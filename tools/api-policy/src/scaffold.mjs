// `api:version <resource> <date>`: scaffolds a new resource version in the spec sources.
//
// - every media type key of the resource's operations at the current version (responses and
//   request bodies) gets a copy under the new date, placed first (newest first), for the
//   author to change; the copies' examples are copied to new files reporting the new version;
// - the registry gains the version, and the previous version gets an obsoleteDate six months
//   after the new date (never earlier than one it already has); its examples report it;
// - a draft changeset (minor, the fixed group) announces the version and the deprecation;
// - with changes (--rename, --remove, --add, --retype), the schemas on the way to each changed
//   field are copied for the new version and changed there (schema-copies.mjs), the new
//   examples are run through the change, and the registry's new entry records the changes
//   (`changes`, bundled as x-version-changes), which the changeset renders as migration notes.
//
// Files are edited in place by splicing text at the positions the `yaml` Document API reports,
// so that comments, quoting and line wrapping everywhere else stay exactly as written.
import fs from 'node:fs';
import path from 'node:path';
import { HTTP_METHODS } from '@payroll-api/openapi-bundle';
import { CONVERSIONS, changeFields, changeProblems, describeChange, versionChanges } from '@payroll-api/version-changes';
import YAML from 'yaml';
import { apiReleases } from './changelog.mjs';
import { addDays, addMonths, assertDate, todayUtc } from './dates.mjs';
import { mediaTypeVersion } from './diff.mjs';
import { PUBLISHED_PACKAGES } from './policy.mjs';
import { APIS, registryPath, relative } from './repo.mjs';
import { SUPPORT_MONTHS } from './rules.mjs';
import { schemaCopies } from './schema-copies.mjs';

function parse(file) {
  const text = fs.readFileSync(file, 'utf8');
  const doc = YAML.parseDocument(text);
  if (doc.errors.length > 0) throw new Error(`${file} is not valid YAML: ${doc.errors[0].message}`);
  return { text, doc };
}

function lineStart(text, offset) {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** Applies [{start, end, text}] edits to a string (non-overlapping). */
function splice(text, edits) {
  let out = text;
  for (const edit of [...edits].sort((a, b) => b.start - a.start || b.end - a.end)) {
    out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  }
  return out;
}

/** The registry lines of a new version's changes (one flow mapping each, as the README shows). */
function registryChanges(changes, pad) {
  if (changes.length === 0) return '';
  const lines = changes.map((change) => {
    const doc = new YAML.Document(change);
    doc.contents.flow = true;
    return `${pad}  - ${doc.toString({ lineWidth: 0 }).trim()}\n`;
  });
  return `${pad}changes:\n${lines.join('')}`;
}

function quoteDate(date) {
  return `'${date}'`;
}

function compactDate(date) {
  return date.replaceAll('-', '');
}

/** Edits that set value.version.resourceVersion / obsoleteDate of an example document. */
function exampleVersionEdits(root, base, { resourceVersion, obsoleteDate }) {
  const edits = [];
  const set = (key, date) => {
    const node = YAML.isMap(root) || YAML.isDocument(root) ? root.getIn([...base, 'version', key], true) : null;
    if (node && YAML.isScalar(node) && node.range) edits.push({ start: node.range[0], end: node.range[1], text: date === null ? 'null' : quoteDate(date) });
  };
  if (resourceVersion !== undefined) set('resourceVersion', resourceVersion);
  if (obsoleteDate !== undefined) set('obsoleteDate', obsoleteDate);
  return edits;
}

const DATE = String.raw`\d{4}-\d{2}-\d{2}`;
const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * How an operation's description names the versions it serves, newest first:
 * "employee resource version 2027-02-01; 2021-03-29 is served until 2027-08-01".
 */
export function versionPhrase(resource, versions) {
  const [newest, ...older] = [...versions].sort((a, b) => (a.version < b.version ? 1 : -1));
  const until = older.filter((v) => v.obsoleteDate).map((v, i) => `${v.version}${i === 0 ? ' is served' : ''} until ${v.obsoleteDate}`);
  return `${resource} resource version ${newest.version}${until.length > 0 ? `; ${until.join(', ')}` : ''}`;
}

/** Matches what versionPhrase writes (or an older one of them), across the line breaks of a folded scalar. */
function versionPhrasePattern(resource) {
  const gap = String.raw`\s+`;
  const name = `[${resource[0].toLowerCase()}${resource[0].toUpperCase()}]${escapeRegExp(resource.slice(1))}`;
  const until = `${gap}until${gap}${DATE}`;
  return new RegExp(String.raw`(?<![\w-])(${name})${gap}resource${gap}version${gap}${DATE}(?:;${gap}${DATE}${gap}is${gap}served${until}(?:,${gap}${DATE}${until})*)?`, 'g');
}

/** The source text of an operation's description with the versions it names brought up to date. */
export function describeVersions(source, { resource, versions, previous, date }) {
  const phrase = versionPhrase(resource, versions);
  return source
    .replace(versionPhrasePattern(resource), (_match, name) => `${name}${phrase.slice(resource.length)}`)
    .replaceAll(`version=${previous}`, `version=${date}`);
}

/** `resource version <previous>` and `version=<previous>` in a new version's copy, renamed to `date`. */
function renameVersion(text, previous, date) {
  return text.replace(new RegExp(String.raw`(resource\s+version\s+)${escapeRegExp(previous)}(?![\d-])`, 'g'), `$1${date}`).replaceAll(`version=${previous}`, `version=${date}`);
}

/**
 * Scaffolds version `date` of `resource`. Returns a summary:
 * {api, resource, version, previous, obsoleteDate, operations, mediaTypes, created, changed, changeset}.
 */
export function scaffoldVersion({ root, resource, date, api, changes = [], packages = PUBLISHED_PACKAGES, today = todayUtc() }) {
  assertDate(date, 'the new version');
  assertDate(today, 'today');
  if (!resource) throw new Error('usage: api:version <resource> <yyyy-MM-dd>');
  changes = changes.map((change) => ({ ...change }));
  // A retype's conversion may be left to be named after the field's old type (below).
  const problems = changes.flatMap((change) => changeProblems(change.retype && !change.conversion ? { ...change, conversion: 'value-to-array', type: 'array' } : change));
  if (problems.length > 0) throw new Error(`the version changes are not valid: ${problems.join('; ')}`);

  // 1. The registry.
  const candidates = (api ? [api] : APIS).filter((a) => fs.existsSync(registryPath(root, a)));
  let found = null;
  const known = [];
  for (const a of candidates) {
    const parsed = parse(registryPath(root, a));
    const names = Object.keys(parsed.doc.toJS()?.resources ?? {});
    known.push(...names);
    if (names.includes(resource)) {
      found = { api: a, ...parsed };
      break;
    }
  }
  if (!found) throw new Error(`unknown resource "${resource}"; the registry knows: ${known.join(', ') || 'nothing'}`);
  const registryFile = registryPath(root, found.api);
  const versionsNode = found.doc.getIn(['resources', resource, 'versions'], true);
  if (!YAML.isSeq(versionsNode) || versionsNode.items.length === 0 || versionsNode.flow) {
    throw new Error(`${relative(root, registryFile)}: resources.${resource}.versions must be a block list with at least one version`);
  }
  const entries = versionsNode.items.map((item) => item.toJSON());
  const newest = [...entries].sort((a, b) => (a.version < b.version ? 1 : -1))[0];
  if (entries.some((e) => e.version === date)) throw new Error(`resource "${resource}" already has version ${date}`);
  if (date <= newest.version) throw new Error(`the new version ${date} must be later than the newest version of "${resource}", ${newest.version}`);
  // The window runs from the release that ships the version, which is today at the earliest.
  if (date < today) {
    throw new Error(`the new version ${date} is dated before today (${today}): clients asking for a version dated from ${date} on get ${newest.version} now and would silently get the new shape; date it ${today} or later`);
  }
  const lastRelease = apiReleases(root).at(-1);
  if (lastRelease?.date && date <= lastRelease.date) {
    throw new Error(`the new version ${date} is not dated after the last release (${lastRelease.version} of ${lastRelease.date}); date it ${addDays(lastRelease.date, 1)} or later`);
  }
  const previous = newest.version;
  const due = addMonths(date, SUPPORT_MONTHS);
  const obsoleteDate = newest.obsoleteDate && newest.obsoleteDate > due ? newest.obsoleteDate : due;
  const operations = found.doc.getIn(['resources', resource, 'operations'])?.toJSON?.() ?? [];
  const servedVersions = [{ version: date, obsoleteDate: null }, ...entries.map((e) => (e.version === previous ? { ...e, obsoleteDate } : e))];

  const fileEdits = new Map(); // file -> edits
  const created = new Map(); // file -> text
  const editsOf = (file) => {
    if (!fileEdits.has(file)) fileEdits.set(file, []);
    return fileEdits.get(file);
  };

  // Registry: the new entry first, the previous one's obsoleteDate.
  const prevIndex = entries.findIndex((e) => e.version === previous);
  const prevNode = versionsNode.items[prevIndex];
  const obsoleteNode = prevNode.get('obsoleteDate', true);
  if (obsoleteNode && obsoleteNode.range) {
    editsOf(registryFile).push({ start: obsoleteNode.range[0], end: obsoleteNode.range[1], text: quoteDate(obsoleteDate) });
  } else {
    const versionPair = prevNode.items.find((pair) => pair.key?.value === 'version');
    const at = found.text.indexOf('\n', versionPair.value.range[1]) + 1;
    const indent = ' '.repeat(versionPair.key.range[0] - lineStart(found.text, versionPair.key.range[0]));
    editsOf(registryFile).push({ start: at, end: at, text: `${indent}obsoleteDate: ${quoteDate(obsoleteDate)}\n` });
  }
  const first = versionsNode.items[0];
  const firstLine = lineStart(found.text, first.range[0]);
  const dash = found.text.slice(firstLine, first.range[0]);
  const pad = ' '.repeat(dash.length);
  const newEntry = {
    start: firstLine,
    end: firstLine,
    text:
      `${dash}version: ${quoteDate(date)}\n${pad}obsoleteDate: null\n${pad}basis: release\n` +
      `${pad}note: Successor of ${previous}, introduced with pnpm api:version; ${previous} is served until ${obsoleteDate}.\n`,
  };
  editsOf(registryFile).push(newEntry);

  // 2. The path files: copy every key at the previous version.
  const pathsDir = path.join(root, 'spec', found.api, 'paths');
  if (!fs.existsSync(pathsDir)) throw new Error(`${relative(root, pathsDir)} does not exist`);
  const seenOps = new Set();
  let mediaTypes = 0;
  const exampleFiles = new Map(); // old example file -> new example file
  const parsedCache = new Map();
  const parsedFile = (file) => {
    if (!parsedCache.has(file)) parsedCache.set(file, parse(file));
    return parsedCache.get(file);
  };

  const schemas = schemaCopies({ root, api: found.api, date });
  const appliedChanges = new Set();
  const copyExample = (file) => {
    if (exampleFiles.has(file)) return exampleFiles.get(file);
    if (!fs.existsSync(file)) throw new Error(`example ${file} does not exist`);
    const target = file.replace(/\.ya?ml$/i, (ext) => `V${compactDate(date)}${ext}`);
    if (fs.existsSync(target)) throw new Error(`${relative(root, target)} already exists`);
    const { text, doc } = parsedFile(file);
    created.set(target, splice(text, exampleVersionEdits(doc, ['value'], { resourceVersion: date })));
    editsOf(file).push(...exampleVersionEdits(doc, ['value'], { obsoleteDate }));
    exampleFiles.set(file, target);
    return target;
  };

  const copyKeys = (file, content) => {
    const { text } = parsedFile(file);
    if (!YAML.isMap(content)) return;
    const keys = content.items.map((pair) => String(pair.key?.value));
    for (const pair of content.items) {
      const key = String(pair.key.value);
      if (mediaTypeVersion(key) !== previous) continue;
      const newKey = key.replace(`version=${previous}`, `version=${date}`);
      if (keys.includes(newKey)) throw new Error(`${relative(root, file)} already has ${newKey}`);
      if (content.flow) throw new Error(`${relative(root, file)}: a flow-style content map cannot be scaffolded`);
      const start = lineStart(text, pair.key.range[0]);
      const end = pair.value.range[2];
      const inner = [{ start: pair.key.range[0] - start, end: pair.key.range[1] - start, text: text.slice(pair.key.range[0], pair.key.range[1]).replace(`version=${previous}`, `version=${date}`) }];
      const examples = pair.value.get?.('examples', true);
      for (const example of YAML.isMap(examples) ? examples.items : []) {
        const refNode = YAML.isMap(example.value) ? example.value.get('$ref', true) : null;
        if (refNode && typeof refNode.value === 'string') {
          const target = copyExample(path.resolve(path.dirname(file), refNode.value));
          const newRef = path.relative(path.dirname(file), target).split(path.sep).join('/');
          inner.push({ start: refNode.range[0] - start, end: refNode.range[1] - start, text: newRef.startsWith('.') ? newRef : `./${newRef}` });
        } else if (YAML.isMap(example.value)) {
          for (const e of exampleVersionEdits(example.value, ['value'], { resourceVersion: date })) {
            inner.push({ start: e.start - start, end: e.end - start, text: e.text });
          }
        }
      }
      for (const e of exampleVersionEdits(pair.value, ['example'], { resourceVersion: date })) {
        inner.push({ start: e.start - start, end: e.end - start, text: e.text });
      }
      // The new version's schema: a copy wherever a change reaches a field on its way.
      const schemaNode = pair.value.get?.('schema', true);
      const schemaRef = YAML.isMap(schemaNode) ? schemaNode.get('$ref', true) : null;
      if (changes.length > 0 && schemaRef && typeof schemaRef.value === 'string' && !schemaRef.value.startsWith('#')) {
        let copied = null;
        for (const [i, change] of changes.entries()) {
          if (change.retype && !change.conversion) {
            const from = schemas.typeOf(path.resolve(path.dirname(file), schemaRef.value), change.retype);
            if (from && CONVERSIONS[`${from}-to-${change.type}`]) change.conversion = `${from}-to-${change.type}`;
          }
          const copyOfSchema = schemas.apply(path.resolve(path.dirname(file), schemaRef.value), change);
          if (copyOfSchema) {
            appliedChanges.add(i);
            copied = copyOfSchema;
          }
        }
        if (copied) inner.push({ start: schemaRef.range[0] - start, end: schemaRef.range[1] - start, text: schemas.relativeRef(file, copied.file) });
      }
      let copy = splice(text.slice(start, end), inner);
      if (!copy.endsWith('\n')) copy += '\n';
      const indent = ' '.repeat(pair.key.range[0] - start);
      const note = `${indent}# Version ${date} (pnpm api:version): copied from ${previous}, to adapt.\n`;
      editsOf(file).push({ start, end: start, text: note + copy });
      mediaTypes += 1;
    }
  };

  /** A response or request body: inline, or a $ref to a file. */
  const visit = (file, node) => {
    if (!YAML.isMap(node)) return;
    const ref = node.get('$ref');
    if (typeof ref === 'string' && !ref.startsWith('#')) {
      const target = path.resolve(path.dirname(file), ref.split('#')[0]);
      if (fs.existsSync(target)) copyKeys(target, parsedFile(target).doc.get('content', true));
      return;
    }
    copyKeys(file, node.get('content', true));
  };

  for (const name of fs.readdirSync(pathsDir).filter((n) => /\.ya?ml$/i.test(n)).sort()) {
    const file = path.join(pathsDir, name);
    const { doc } = parsedFile(file);
    if (!YAML.isMap(doc.contents)) continue;
    for (const method of HTTP_METHODS) {
      const operation = doc.get(method, true);
      const operationId = YAML.isMap(operation) ? operation.get('operationId') : undefined;
      if (!operationId || !operations.includes(operationId)) continue;
      seenOps.add(operationId);
      // "employee resource version 2021-03-29" in the description names the newest version.
      const description = operation.get('description', true);
      if (YAML.isScalar(description) && description.range) {
        const { text } = parsedFile(file);
        const [start, end] = description.range;
        const updated = describeVersions(text.slice(start, end), { resource, versions: servedVersions, previous, date });
        if (updated !== text.slice(start, end)) editsOf(file).push({ start, end, text: updated });
      }
      visit(file, operation.get('requestBody', true));
      const responses = operation.get('responses', true);
      for (const pair of YAML.isMap(responses) ? responses.items : []) visit(file, pair.value);
    }
  }
  const missing = operations.filter((op) => !seenOps.has(op));
  const unplaced = changes.filter((change, i) => !appliedChanges.has(i) && changeFields(change).kind !== 'note' && changeFields(change).kind !== 'revalue');
  if (unplaced.length > 0) {
    const fields = unplaced.map((change) => changeFields(change).before ?? changeFields(change).after);
    throw new Error(`no schema of resource "${resource}" at ${previous} has ${fields.map((f) => `"${f}"`).join(', ')} (${unplaced.map((c) => (changeFields(c).kind === 'add' ? 'the object to add it to' : 'the field')).join(', ')} was not found); nothing was written`);
  }
  if (seenOps.size === 0) throw new Error(`no operation of resource "${resource}" (${operations.join(', ')}) was found in ${relative(root, pathsDir)}`);
  if (mediaTypes === 0) throw new Error(`no media type key at version ${previous} was found for resource "${resource}"`);

  const unnamed = changes.filter((change) => change.retype && !change.conversion);
  if (unnamed.length > 0) {
    throw new Error(`--retype ${unnamed.map((c) => c.retype).join(', ')}: name the conversion (--conversion <name>; one of ${Object.keys(CONVERSIONS).join(', ')}); nothing was written`);
  }
  newEntry.text += registryChanges(changes, pad);
  if (changes.length > 0) {
    // The new examples are the old ones as a client of the new version sees them.
    const chain = versionChanges({ [resource]: [{ version: date, previous, changes }] });
    for (const target of exampleFiles.values()) {
      const example = YAML.parseDocument(created.get(target));
      example.setIn(['value'], example.createNode(chain.upgrade(resource, previous, date, example.toJS().value)));
      created.set(target, example.toString({ lineWidth: 0 }));
    }
  }

  // 3. The draft changeset.
  const changesetFile = path.join(root, '.changeset', `${resource}-${date}.md`);
  if (fs.existsSync(changesetFile)) throw new Error(`${relative(root, changesetFile)} already exists`);
  const frontmatter = packages.map((name) => `'${name}': minor`).join('\n');
  created.set(
    changesetFile,
    `---\n${frontmatter}\n---\n\n` +
      `New resource version \`${resource}\` ${date} (${operations.join(', ')}): request it with ` +
      `\`Accept: application/json;version=${date}\` (request bodies: \`Content-Type\`).\n\n` +
      `Version ${previous} of \`${resource}\` is deprecated: it is served until ${obsoleteDate} (its obsoleteDate), ` +
      `six months after ${date}.\n\n` +
      (changes.length > 0
        ? `Migrating from ${previous} to ${date}:\n\n${changes.map((change) => `- ${describeChange(change)}`).join('\n')}\n`
        : `<!-- Describe what changes in ${date} compared with ${previous}. -->\n`),
  );

  // Write everything only after every step succeeded.
  const changed = [];
  for (const [file, edits] of fileEdits) {
    if (edits.length === 0) continue;
    const text = parsedCache.get(file)?.text ?? (file === registryFile ? found.text : fs.readFileSync(file, 'utf8'));
    fs.writeFileSync(file, splice(text, edits));
    changed.push(relative(root, file));
  }
  // A copy is the new version's schema: where it names the version, it names the new one.
  for (const [file, text] of schemas.files()) created.set(file, renameVersion(text, previous, date));
  for (const [file, text] of created) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  }
  return {
    api: found.api,
    resource,
    version: date,
    previous,
    obsoleteDate,
    operations: [...seenOps],
    missingOperations: missing,
    mediaTypes,
    changed: changed.sort(),
    created: [...created.keys()].map((file) => relative(root, file)).sort(),
    changeset: relative(root, changesetFile),
    changes,
  };
}
