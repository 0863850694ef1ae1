// The app over a scenario instead of the seed: one request sets up exactly the data a test is
// about ("an employer with three employees, one of them terminated"), with the names the test
// asserts; the sandbox completes everything else. A factory builds an entity in the test itself
// when the test wants the whole entity in hand (here, to assert the name it was given).
import { fireEvent, render, screen, within } from '@testing-library/react';
import type { Scenario } from '@payroll-api/sandbox';
import { createFixtures } from '@payroll-api/sandbox/fixtures';
import { beforeEach, describe, expect, it } from 'vitest';
import { App } from '../src/App.js';
import { appClient, sandbox, TOKEN } from './sandbox.js';

const THREE_EMPLOYEES: Scenario = {
  start: 'empty',
  entities: {
    employers: [{ ref: 'bakery', companyName: 'Bakkerij Het Anker B.V.' }],
    employees: [
      { ref: 'anna', employerRef: 'bakery', personalDetails: { firstName: 'Anna', initials: 'A.', prefix: '', lastName: 'Visser' } },
      { ref: 'bram', employerRef: 'bakery', personalDetails: { firstName: 'Bram', initials: 'B.', prefix: '', lastName: 'Kok' } },
      { ref: 'cor', employerRef: 'bakery', personalDetails: { firstName: 'Cor', initials: 'C.', prefix: 'de', lastName: 'Wit' } },
    ],
    employments: [
      { employeeRef: 'anna', startDate: '2020-01-01' },
      { employeeRef: 'bram', startDate: '2021-03-01' },
      { employeeRef: 'cor', startDate: '2019-05-01', endDate: '2026-06-30' },
    ],
  },
};

let refs: Record<string, string>;
beforeEach(async () => {
  ({ refs } = await sandbox.scenario(THREE_EMPLOYEES, { token: TOKEN }));
});

const rows = () => within(screen.getByRole('table')).getAllByRole('button');

describe('an employer with three employees, one of them terminated', () => {
  it('lists exactly the scenario’s three employees', async () => {
    render(<App payroll={appClient()} />);
    await screen.findByRole('table');
    expect(rows().map((row) => row.textContent).sort()).toEqual(['A. Visser', 'B. Kok', 'C. de Wit']);
    expect(screen.getByText('Page 1 of 1 (3 employees)')).toBeTruthy();
  });

  it('shows the terminated employment with its end, and the others as ongoing', async () => {
    render(<App payroll={appClient()} />);
    await screen.findByRole('table');
    fireEvent.click(rows().find((row) => row.textContent === 'C. de Wit')!);
    const ended = await screen.findByRole('form', { name: 'Employment 1' });
    expect(ended.textContent).toContain('from 2019-05-01 until 2026-06-30');
    expect(within(ended).getByRole('button', { name: 'Change end' })).toBeTruthy();

    fireEvent.click(rows().find((row) => row.textContent === 'A. Visser')!);
    await screen.findByRole('heading', { level: 2, name: 'A. Visser' });
    const ongoing = await screen.findByRole('form', { name: 'Employment 1' });
    expect(ongoing.textContent).toContain('from 2020-01-01 (ongoing)');
  });
});

describe('an employee built by a factory, added by a scenario', () => {
  it('lists the fourth employee under the name the factory completed', async () => {
    // Deterministic from the seed: a valid citizen service number, initials, an address, ...
    const { personalDetails } = createFixtures({ seed: 'example' }).employee({ personalDetails: { firstName: 'Dirk', lastName: 'Bakker' } });
    // Merged: added to the three employees, under the scenario's employer.
    await sandbox.scenario({ entities: { employees: [{ employerId: refs.bakery!, personalDetails }] } }, { token: TOKEN, mode: 'merge' });
    render(<App payroll={appClient()} />);
    await screen.findByRole('table');
    expect(personalDetails?.formattedName).toMatch(/Bakker$/);
    expect(rows().map((row) => row.textContent).sort()).toEqual(['A. Visser', 'B. Kok', 'C. de Wit', personalDetails?.formattedName].sort());
  });
});
