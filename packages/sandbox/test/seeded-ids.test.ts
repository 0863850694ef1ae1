// GET /__sandbox/seeded-ids: the seeded entities an integrator needs ids of (the wage models
// above all, which the API lists nowhere), read from the caller's own sandbox, in the shape the
// control description gives.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../src/index.js';
import { controlDescription } from '../src/generated/control-description.js';
import { createAjv } from './schema-oracle.js';
import { seedSnapshot } from '../src/seed/index.js';
import { seededEntities } from '../src/seed/seeded-ids.js';
import { SEED_IDS } from '../src/seed/ids.js';
import { call, ORIGIN, sandboxPerFile } from './support.js';

const SEEDED_IDS = `${ORIGIN}/__sandbox/seeded-ids`;
const current = sandboxPerFile();
let sandbox: Sandbox;
beforeEach(() => {
  sandbox = current();
});

describe('the seeded ids', () => {
  it("lists the seed's providers, employers, payroll administrations, wage models and their journal profiles, as the description says", async () => {
    const res = await call(sandbox, 'a', SEEDED_IDS, { headers: { accept: 'application/json' } });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.entities).toEqual(seededEntities(seedSnapshot().collections));
    expect(body.entities).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'wageModel', id: SEED_IDS.wageModel, sampleName: 'wageModel' })]));
    expect(new Set(body.entities.map((e: { kind: string }) => e.kind))).toEqual(new Set(['provider', 'employer', 'payrollAdministration', 'wageModel', 'journalProfile']));
    const ajv = createAjv();
    ajv.addSchema({ ...controlDescription, $id: 'control' });
    const validate = ajv.compile({ $ref: 'control#/paths/~1__sandbox~1seeded-ids/get/responses/200/content/application~1json/schema' });
    expect(validate(body) ? [] : validate.errors).toEqual([]);
  });

  it("answers each token from its own sandbox: a renamed employer shows its new name there only; no token gets a 401", async () => {
    const employer = `${ORIGIN}/v2/v2/providers/employers/${SEED_IDS.employer}`;
    const read = (await (await call(sandbox, 'a', employer)).json()).content;
    const { id: _id, employerNumber: _number, ...editable } = read;
    expect((await call(sandbox, 'a', employer, { method: 'PUT', body: JSON.stringify({ ...editable, companyName: 'Hernoemd B.V.' }) })).status).toBe(200);
    const nameIn = async (token: string) =>
      ((await (await call(sandbox, token, SEEDED_IDS, { headers: { accept: 'application/json' } })).json()).entities as Array<{ id: string; name: string }>).find((e) => e.id === SEED_IDS.employer)?.name;
    expect(await nameIn('a')).toBe('Hernoemd B.V.');
    expect(await nameIn('b')).toBe('Van der Meer Bouwgroep B.V.');
    expect((await sandbox.fetch(SEEDED_IDS)).status).toBe(401);
  });
});
