// Defects found on the way, fixed in both modes: list answers that are not downloads carry no
// Content-Disposition (an example value leaked into the header), photo GETs answer an image
// with its Content-Type, and /__health answers for orchestration.
import { describe, expect, it } from 'vitest';
import { SEED_IDS } from '#sandbox/seed/ids.js';
import { PEOPLE_IDS } from '#sandbox/seed/people.js';
import { EMPLOYER_ID, realBundle } from './fixtures/fixture.js';
import { headers, request, sandboxMock, startProcess, type MockProcess } from './helpers.js';
import { afterAll, beforeAll } from 'vitest';

describe('examples mode (real bundles)', () => {
  let mock: MockProcess;
  beforeAll(async () => {
    realBundle('payroll');
    mock = await startProcess(['--port', '0', '--examples']);
  });
  afterAll(() => mock?.stop());

  it('sends no Content-Disposition on list answers that are not downloads', async () => {
    const journal = realBundle('journal');
    const lists = Object.keys(journal.paths).filter((p) => journal.paths[p].get?.responses?.['200']?.headers?.['Content-Disposition']);
    for (const url of [`/v2/v2/providers/employers/${EMPLOYER_ID}/employees`, ...lists.map((p) => p.replace(/\{[^}]+\}/g, EMPLOYER_ID))]) {
      const res = await request(`${mock.url}${url}`, { headers: headers() });
      expect(res.status, url).toBe(200);
      expect(res.headers['content-disposition'], url).toBeUndefined();
    }
  });

  it('answers a photo GET with an image and its Content-Type', async () => {
    const res = await request(`${mock.url}/v2/v2/providers/employers/employees/${EMPLOYER_ID}/photo`, { headers: headers('*/*') });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\//);
    expect(res.body.length).toBeGreaterThan(0);
  });

  it('answers /__health without a token', async () => {
    const res = await request(`${mock.url}/__health`);
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', mode: 'examples', apis: [{ name: 'payroll' }, { name: 'journal' }] });
  });
});

describe('sandbox mode', () => {
  const mock = sandboxMock();

  it('answers a photo GET with the stored image and its Content-Type', async () => {
    const res = await request(`${mock().url}/v2/v2/providers/employers/employees/${PEOPLE_IDS.employee}/photo`, { headers: headers('*/*') });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\//);
    expect(res.body.length).toBeGreaterThan(0);
  });

  it('sends no Content-Disposition on list answers that are not downloads', async () => {
    const res = await request(`${mock().url}/v2/v2/providers/employers/${SEED_IDS.employer}/employees`, { headers: headers() });
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toBeUndefined();
  });
});
