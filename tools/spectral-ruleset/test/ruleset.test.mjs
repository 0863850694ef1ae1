// The ruleset as a whole: valid for Spectral, one function and one test per rule, the base
// fixture clean under every rule at once, and malformed documents reported, never crashing.
import fs from 'node:fs';
import { Ruleset } from '@stoplight/spectral-core';
import { describe, expect, it } from 'vitest';
import ruleset from '../ruleset.mjs';
import { fixture, fixtureText, lint, lintText, ruleNames } from './support/lint.mjs';

const root = new URL('../', import.meta.url);
const filesIn = (dir) => fs.readdirSync(new URL(dir, root));

describe('house ruleset', () => {
  it('is a valid Spectral ruleset', () => {
    expect(() => new Ruleset(ruleset)).not.toThrow();
  });

  it.each(ruleNames)('%s is an error with a description, a function file and a test file', (name) => {
    const rule = ruleset.rules[name];
    expect(rule.severity).toBe('error');
    expect(rule.description).toMatch(/\.$/);
    expect(filesIn('functions')).toContain(`${name}.mjs`);
    expect(filesIn('test')).toContain(`${name}.test.mjs`);
  });

  it('uses every function file', () => {
    const functions = filesIn('functions').map((file) => file.replace(/\.mjs$/, ''));
    expect(functions.sort()).toEqual([...ruleNames].sort());
  });

  it('finds nothing in the base fixture, read as YAML or as JSON', async () => {
    expect(await lintText(fixtureText('base.yaml'), 'yaml')).toEqual([]);
    expect(await lint(fixture())).toEqual([]);
  });

  it('reports YAML findings at the right line', async () => {
    const text = fixtureText('base.yaml').replace('operationId: PostEmployeeByEmployerId', 'operationId: postEmployee');
    const line = text.split('\n').findIndex((l) => l.includes('operationId: postEmployee')) + 1;
    expect(await lintText(text, 'yaml', ['operation-id-activity'])).toEqual([
      expect.objectContaining({ code: 'operation-id-activity', line }),
    ]);
  });

  it.each([
    ['paths is a list', { openapi: '3.1.0', info: { title: 't', version: '1' }, paths: [] }],
    ['a path item is null', { ...fixture(), paths: { '/v2/x': null } }],
    ['an operation has no responses', { ...fixture(), paths: { '/v2/x': { get: { operationId: 'GetX' } } } }],
    ['parameters are not a list', { ...fixture(), paths: { '/v2/x/{id}': { parameters: 'id', get: { operationId: 'GetX', parameters: {} } } } }],
    ['the registry is malformed', { ...fixture(), 'x-resource-versions': { resources: { employee: { operations: 'x', versions: 'y' } } } }],
  ])('reports, without crashing, when %s', async (_what, document) => {
    const results = await lint(document);
    expect(Array.isArray(results)).toBe(true);
    expect(results.every((r) => ruleNames.includes(r.code) && typeof r.message === 'string')).toBe(true);
  });
});
