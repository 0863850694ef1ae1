// Runs the house ruleset, or some of its rules, on a document the way the spec's lint does:
// a real Spectral instance, a real parser, references resolved.
import fs from 'node:fs';
import { Document, Spectral } from '@stoplight/spectral-core';
import Parsers from '@stoplight/spectral-parsers';
import YAML from 'yaml';
import ruleset from '../../ruleset.mjs';

export const ruleNames = Object.keys(ruleset.rules);

const fixturesDir = new URL('../fixtures/', import.meta.url);

/** The text of a fixture file. */
export function fixtureText(name) {
  return fs.readFileSync(new URL(name, fixturesDir), 'utf8');
}

/** A fresh deep copy of a fixture, to mutate. */
export function fixture(name = 'base.yaml') {
  return YAML.parse(fixtureText(name));
}

function linter(rules) {
  const spectral = new Spectral();
  spectral.setRuleset({ extends: [[ruleset, 'off']], rules: Object.fromEntries(rules.map((name) => [name, true])) });
  return spectral;
}

/** Lints a document object (serialised as JSON, as the bundles are) with the given rules,
 * all house rules by default. Returns the findings as {code, message, path, severity, line}. */
export async function lint(document, rules = ruleNames) {
  return lintText(JSON.stringify(document, null, 2), 'json', rules);
}

/** Lints document text in JSON or YAML with the given rules. */
export async function lintText(text, format, rules = ruleNames) {
  const parser = format === 'yaml' ? Parsers.Yaml : Parsers.Json;
  const results = await linter(rules).run(new Document(text, parser, `document.${format}`));
  return results.map(({ code, message, path, severity, range }) => ({ code, message, path: path.map(String), severity, line: range.start.line + 1 }));
}

/** Findings of one rule only (the linter runs only that rule). */
export function lintRule(rule, document) {
  return lint(document, [rule]);
}
