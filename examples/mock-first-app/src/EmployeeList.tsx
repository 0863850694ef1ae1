import { filterFor } from '@payroll-api/client';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { EmployeeRow, Queries } from './api.js';
import { QueryState } from './QueryState.js';

const PAGE_SIZE = 5;
const f = filterFor<EmployeeRow>();

export function EmployeeList({ api, employerId, onSelect }: { api: Queries; employerId: string; onSelect: (employeeId: string) => void }) {
  const [lastName, setLastName] = useState('');
  const [page, setPage] = useState(1);
  // The query parameters are part of the key: each page and filter is an entry of its own in the cache.
  const list = useQuery(
    api.GetEmployeesByEmployerId({
      employerId,
      pageSize: PAGE_SIZE,
      pageNumber: page,
      orderBy: 'employeeNumber',
      // The builder quotes and escapes the value (a last name may hold a quote: D'Hondt).
      ...(lastName.trim() ? { filter: f.where('personalDetails.lastName', 'lk', lastName.trim()).text } : {}),
    }),
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
      <QueryState query={list} loading="Loading employees…">
        {(data) => (
          <>
            <table>
              <thead>
                <tr>
                  <th>Number</th>
                  <th>Name</th>
                </tr>
              </thead>
              <tbody>
                {data._embedded.map((employee) => (
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
                Page {data.currentPage} of {Math.max(1, data.totalPages)} ({data.totalSize} employees)
              </span>{' '}
              <button disabled={page >= data.totalPages} onClick={() => setPage(page + 1)}>
                Next
              </button>
              {list.isFetching && <span role="status"> Updating…</span>}
            </nav>
          </>
        )}
      </QueryState>
    </section>
  );
}
