import { filterFor, unwrap } from '@payroll-api/client';
import { useState } from 'react';
import type { EmployeeRow, Payroll } from './api.js';
import { ErrorNotice } from './ErrorNotice.js';
import { useLoad } from './use-load.js';

const PAGE_SIZE = 5;
const f = filterFor<EmployeeRow>();

export function EmployeeList({ payroll, employerId, revision, onSelect }: { payroll: Payroll; employerId: string; revision: number; onSelect: (employeeId: string) => void }) {
  const [lastName, setLastName] = useState('');
  const [page, setPage] = useState(1);
  const list = useLoad(
    async () =>
      unwrap(
        await payroll.GetEmployeesByEmployerId({
          employerId,
          pageSize: PAGE_SIZE,
          pageNumber: page,
          orderBy: 'employeeNumber',
          // The builder quotes and escapes the value (a last name may hold a quote: D'Hondt).
          ...(lastName.trim() ? { filter: f.where('personalDetails.lastName', 'lk', lastName.trim()).text } : {}),
        }),
      ),
    `${employerId} ${page} ${lastName.trim()} ${revision}`,
  );

  return (
    <section aria-label="Employees">
      <label>
        Last name contains{' '}
        <input
          value={lastName}
          onChange={(event) => {
            setLastName(event.target.value);
            setPage(1);
          }}
        />
      </label>
      {list.state === 'loading' && <p role="status">Loading employees…</p>}
      {list.state === 'error' && <ErrorNotice error={list.error} onRetry={list.reload} />}
      {list.state === 'ready' && (
        <>
          <table>
            <thead>
              <tr>
                <th>Number</th>
                <th>Name</th>
              </tr>
            </thead>
            <tbody>
              {list.data._embedded.map((employee) => (
                <tr key={employee.id}>
                  <td>{employee.employeeNumber}</td>
                  <td>
                    <button className="link" onClick={() => onSelect(employee.id!)}>
                      {employee.personalDetails?.formattedName}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <nav aria-label="Pages">
            <button disabled={page <= 1} onClick={() => setPage(page - 1)}>
              Previous
            </button>{' '}
            <span>
              Page {list.data.currentPage} of {Math.max(1, list.data.totalPages)} ({list.data.totalSize} employees)
            </span>{' '}
            <button disabled={page >= list.data.totalPages} onClick={() => setPage(page + 1)}>
              Next
            </button>
          </nav>
        </>
      )}
    </section>
  );
}
