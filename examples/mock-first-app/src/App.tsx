import { unwrap } from '@payroll-api/client';
import { useState } from 'react';
import type { Payroll } from './api.js';
import { EmployeeDetail } from './EmployeeDetail.js';
import { EmployeeList } from './EmployeeList.js';
import { ErrorNotice } from './ErrorNotice.js';
import { NewEmployeeForm } from './NewEmployeeForm.js';
import { useLoad } from './use-load.js';

/** Employees of the user's first employer: a list with filter and paging, a new employee, one employee's details. */
export function App({ payroll }: { payroll: Payroll }) {
  const employers = useLoad(async () => unwrap(await payroll.GetEmployersByUserId())._embedded, 'employers');
  const [selected, setSelected] = useState<string | undefined>();
  const [revision, setRevision] = useState(0);
  const changed = () => setRevision((n) => n + 1);

  if (employers.state === 'loading') return <p role="status">Loading employers…</p>;
  if (employers.state === 'error') return <ErrorNotice error={employers.error} onRetry={employers.reload} />;
  const employer = employers.data[0];
  if (!employer?.id) return <p>This user has no employer.</p>;
  return (
    <main>
      <h1>Employees of {employer.companyName}</h1>
      <EmployeeList payroll={payroll} employerId={employer.id} revision={revision} onSelect={setSelected} />
      <NewEmployeeForm payroll={payroll} employerId={employer.id} onCreated={(employeeId) => (changed(), setSelected(employeeId))} />
      {selected && <EmployeeDetail key={selected} payroll={payroll} employeeId={selected} onChanged={changed} />}
    </main>
  );
}
