import { payrollQueries } from '@payroll-api/query';
import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { createAppQueryClient, type Payroll, type Queries } from './api.js';
import { EmployeeDetail } from './EmployeeDetail.js';
import { EmployeeList } from './EmployeeList.js';
import { EmployerEmployments } from './EmployerEmployments.js';
import { NewEmployeeForm } from './NewEmployeeForm.js';
import { QueryState } from './QueryState.js';

/**
 * Employees of the user's first employer: a list with filter and paging, a new employee, one
 * employee's details. Server state lives in TanStack Query, a cache of its own per mounted app.
 */
export function App({ payroll }: { payroll: Payroll }) {
  const [cache] = useState(createAppQueryClient);
  const api = useMemo(() => payrollQueries(payroll), [payroll]);
  return (
    <QueryClientProvider client={cache}>
      <Employees api={api} />
    </QueryClientProvider>
  );
}

function Employees({ api }: { api: Queries }) {
  const employers = useQuery(api.GetEmployersByUserId());
  const [selected, setSelected] = useState<string | undefined>();
  return (
    <QueryState query={employers} loading="Loading employers…">
      {({ _embedded: [employer] }) =>
        !employer?.id ? (
          <p>This user has no employer.</p>
        ) : (
          <main>
            <h1>Employees of {employer.companyName}</h1>
            {/* No refetch wiring between these: each write invalidates the queries it changed. */}
            <EmployeeList api={api} employerId={employer.id} onSelect={setSelected} />
            <EmployerEmployments api={api} employerId={employer.id} />
            <NewEmployeeForm api={api} employerId={employer.id} onCreated={setSelected} />
            {selected && <EmployeeDetail key={selected} api={api} employeeId={selected} />}
          </main>
        )
      }
    </QueryState>
  );
}
