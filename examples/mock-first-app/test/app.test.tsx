// The app's components against the real sandbox engine through MSW (jsdom): the list with its
// filter and pages, a new employee, an edit, a termination, and the loading and error states
// made with the sandbox's faults.
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { App } from '../src/App.js';
import { sandbox, stored, TOKEN, appClient } from './sandbox.js';

const EMPLOYEE = 'application/json;version=2021-03-29';
const EMPLOYMENT = 'application/json;version=2019-12-16';

type List = { _embedded: Array<{ id: string; personalDetails: { lastName: string; formattedName: string } }>; totalSize: number; totalPages: number };

async function firstEmployer(): Promise<{ id: string }> {
  return (await stored<{ _embedded: Array<{ id: string }> }>('/v2/v2/providers/employers', 'application/json;version=2018-01-01'))._embedded[0]!;
}

/** The stored employees of the first employer with this last name. */
async function storedByLastName(lastName: string): Promise<List> {
  const employer = await firstEmployer();
  return stored<List>(`/v2/v2/providers/employers/${employer.id}/employees?filter=${encodeURIComponent(`personalDetails.lastName eq '${lastName}'`)}`, EMPLOYEE);
}

async function renderApp() {
  render(<App payroll={appClient()} />);
  await screen.findByRole('table');
}

const names = () => within(screen.getByRole('table')).getAllByRole('button').map((b) => b.textContent);
const type = (label: string, value: string, scope: HTMLElement = document.body) => fireEvent.change(within(scope).getByLabelText(label), { target: { value } });

async function addEmployee(firstName: string, lastName: string, startDate = '2026-02-01') {
  const form = screen.getByRole('form', { name: 'New employee' });
  type('First name', firstName, form);
  type('Last name', lastName, form);
  type('Date of birth', '1990-08-17', form);
  type('Start date', startDate, form);
  fireEvent.click(within(form).getByRole('button', { name: 'Add employee' }));
  return screen.findByRole('heading', { level: 2, name: new RegExp(lastName) });
}

describe('the employee list', () => {
  it('shows the first employer’s employees five a page, pages on, and filters by last name', async () => {
    const employer = await firstEmployer();
    const all = await stored<List>(`/v2/v2/providers/employers/${employer.id}/employees?pageSize=5&orderBy=employeeNumber`, EMPLOYEE);
    render(<App payroll={appClient()} />);

    await screen.findByRole('table');
    expect(names()).toEqual(all._embedded.map((e) => e.personalDetails.formattedName));
    expect(screen.getByText(`Page 1 of ${all.totalPages} (${all.totalSize} employees)`)).toBeTruthy();
    expect(all.totalPages).toBeGreaterThan(1);

    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText(`Page 2 of ${all.totalPages} (${all.totalSize} employees)`);
    const second = await stored<List>(`/v2/v2/providers/employers/${employer.id}/employees?pageSize=5&pageNumber=2&orderBy=employeeNumber`, EMPLOYEE);
    expect(names()).toEqual(second._embedded.map((e) => e.personalDetails.formattedName));

    const lastName = all._embedded[0]!.personalDetails.lastName;
    type('Last name contains', lastName.slice(0, 4));
    await waitFor(() => expect(screen.getByText(/^Page 1 of/)).toBeTruthy());
    await waitFor(() => expect(names().length).toBeGreaterThan(0));
    for (const name of names()) expect(name?.toLowerCase()).toContain(lastName.slice(0, 4).toLowerCase());
  });
});

describe('writing', () => {
  it('adds an employee, who is then found by the filter and stored in the sandbox', async () => {
    await renderApp();
    await addEmployee('Noor', 'Zwanenburg');

    type('Last name contains', 'Zwanenburg');
    await waitFor(() => expect(names()).toEqual(['N. Zwanenburg']));
    expect((await storedByLastName('Zwanenburg')).totalSize).toBe(1);
  });

  it('edits an employee’s name (read, edit, write back)', async () => {
    await renderApp();
    const firstRow = within(screen.getByRole('table')).getAllByRole('button')[0]!;
    fireEvent.click(firstRow);
    const form = await screen.findByRole('form', { name: 'Edit employee' });
    type('Last name', 'Achterberg', form);
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await screen.findByText(/^ ?Saved .*Achterberg\.$/);

    expect((await storedByLastName('Achterberg')).totalSize).toBe(1);
  });

  it('terminates an employment, always saying whether it ends during illness', async () => {
    await renderApp();
    await addEmployee('Sem', 'Terpstra', '2026-02-01');
    const employment = await screen.findByRole('form', { name: 'Employment 1' });
    expect(employment.textContent).toContain('(ongoing)');

    // Before the start date: the sandbox refuses, and the app shows the contract's message.
    type('End date', '2026-01-15', employment);
    fireEvent.click(within(employment).getByRole('button', { name: 'Terminate' }));
    expect((await within(employment).findByRole('alert')).textContent).toMatch(/The server answered 400: \S/);

    type('End date', '2026-06-30', employment);
    fireEvent.click(within(employment).getByLabelText('Ends during illness'));
    fireEvent.click(within(employment).getByRole('button', { name: 'Terminate' }));
    await screen.findByText(/until 2026-06-30/);

    const employee = (await storedByLastName('Terpstra'))._embedded[0]!;
    const employments = await stored<{ _embedded: Array<{ endDate: string; endOfEmploymentDueToIllness: boolean }> }>(`/v2/v2/providers/employers/employees/${employee.id}/employments`, EMPLOYMENT);
    expect(employments._embedded[0]).toMatchObject({ endDate: '2026-06-30', endOfEmploymentDueToIllness: true });
  });
});

describe('loading and error states, made with the sandbox’s faults', () => {
  it('shows the loading state while the list lags', async () => {
    await sandbox.faults.add([{ operations: ['GetEmployeesByEmployerId'], delayMs: 1500, times: 1 }], { token: TOKEN });
    render(<App payroll={appClient()} />);
    await screen.findByText('Loading employees…');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.getByText('Loading employees…')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    await screen.findByRole('table', {}, { timeout: 5000 });
  });

  it('hides one 503 behind the client’s retry', async () => {
    await sandbox.faults.add([{ operations: ['GetEmployeesByEmployerId'], status: 503, retryAfterSeconds: 0, times: 1 }], { token: TOKEN });
    await renderApp();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(await sandbox.faults.list({ token: TOKEN })).toEqual([]);
  });

  it('shows the error when the list keeps failing, and recovers on “Try again”', async () => {
    await sandbox.faults.add([{ operations: ['GetEmployeesByEmployerId'], status: 503, retryAfterSeconds: 0 }], { token: TOKEN });
    render(<App payroll={appClient()} />);
    expect((await screen.findByRole('alert', {}, { timeout: 5000 })).textContent).toContain('The server answered 503');
    await sandbox.faults.clear({ token: TOKEN });
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByRole('table');
  });

  it('shows a network failure', async () => {
    await sandbox.faults.add([{ operations: ['GetEmployeesByEmployerId'], networkError: true }], { token: TOKEN });
    render(<App payroll={appClient()} />);
    expect((await screen.findByRole('alert', {}, { timeout: 5000 })).textContent).toContain('could not be reached');
  });
});

describe('what the query cache gives: no refetch wiring in the app', () => {
  it('a new employee shows up in the filtered list already on screen', async () => {
    await renderApp();
    type('Last name contains', 'Zwanenburg');
    await screen.findByText('Page 1 of 1 (0 employees)');

    await addEmployee('Noor', 'Zwanenburg');
    // The create invalidated this employer's employee lists; the one on screen refetched.
    await waitFor(() => expect(names()).toEqual(['N. Zwanenburg']));
    expect(screen.getByText('Page 1 of 1 (1 employees)')).toBeTruthy();
  });

  it('an edited name shows in the list above the form', async () => {
    await renderApp();
    fireEvent.click(within(screen.getByRole('table')).getAllByRole('button')[0]!);
    const form = await screen.findByRole('form', { name: 'Edit employee' });
    expect(names().some((name) => name?.includes('Achterberg'))).toBe(false);
    type('Last name', 'Achterberg', form);
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await screen.findByText(/^ ?Saved .*Achterberg\.$/);
    expect(names()[0]).toContain('Achterberg');
  });

  it('an edited name shows in the employer’s employments, which embed the employee (the app’s own onSuccess keeps the invalidation)', async () => {
    await renderApp();
    const employments = await screen.findByRole('region', { name: 'Employments of the employer' });
    await within(employments).findAllByRole('listitem');
    fireEvent.click(within(screen.getByRole('table')).getAllByRole('button')[0]!);
    const form = await screen.findByRole('form', { name: 'Edit employee' });
    const [before] = within(employments).getAllByRole('listitem').map((item) => item.textContent);
    expect(before).not.toContain('Achterberg');
    type('Last name', 'Achterberg', form);
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    // The status comes from the app's own onSuccess; the list from the package's invalidation.
    expect((await screen.findByRole('status')).textContent).toMatch(/Saved .*Achterberg\./);
    await waitFor(() => expect(within(employments).getAllByRole('listitem')[0]!.textContent).toContain('Achterberg'));
    expect(within(employments).getAllByRole('listitem')[0]!.textContent).toMatch(/: employment \d+ from /);
  });

  it('a termination updates the employment on screen, which stays shown while it refetches', async () => {
    await renderApp();
    await addEmployee('Sem', 'Terpstra');
    const employment = await screen.findByRole('form', { name: 'Employment 1' });
    await sandbox.faults.add([{ operations: ['GetEmploymentsByEmployeeId'], delayMs: 1000, times: 1 }], { token: TOKEN });

    type('End date', '2026-06-30', employment);
    fireEvent.click(within(employment).getByRole('button', { name: 'Terminate' }));
    // The write is taken; the employments list refetches in the background, the old answer still shown.
    await waitFor(() => expect(within(employment).getByRole('button', { name: 'Terminate' })).toHaveProperty('disabled', true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.queryByText('Loading employments…')).toBeNull();
    expect(employment.textContent).toContain('(ongoing)');

    await within(employment).findByText(/until 2026-06-30/, {}, { timeout: 5000 });
    expect(within(employment).getByRole('button', { name: 'Change end' })).toBeTruthy();
  });

  it('a page seen before shows at once from the cache while it refetches', async () => {
    await renderApp();
    const first = names();
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText(/^Page 2 of/);
    await sandbox.faults.add([{ operations: ['GetEmployeesByEmployerId'], delayMs: 1000, times: 1 }], { token: TOKEN });

    fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
    expect(screen.getByText(/^Page 1 of/)).toBeTruthy();
    expect(names()).toEqual(first);
    expect(screen.queryByText('Loading employees…')).toBeNull();
    expect(screen.getByText('Updating…')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Updating…')).toBeNull());
  });
});
