import { unwrap } from '@payroll-api/client';
import { toBody } from '@payroll-api/client/body';
import { useState, type FormEvent } from 'react';
import type { EmploymentRow, Payroll } from './api.js';
import { ErrorNotice } from './ErrorNotice.js';
import { useLoad } from './use-load.js';

const field = (form: HTMLFormElement, name: string) => form.elements.namedItem(name) as HTMLInputElement;

/** One employee: edit the name (read, edit, write back), and end an employment. */
export function EmployeeDetail({ payroll, employeeId, onChanged }: { payroll: Payroll; employeeId: string; onChanged: () => void }) {
  const employee = useLoad(async () => unwrap(await payroll.GetEmployeeByEmployeeId({ employeeId })).content!, `employee ${employeeId}`);
  const employments = useLoad(async () => unwrap(await payroll.GetEmploymentsByEmployeeId({ employeeId }))._embedded, `employments ${employeeId}`);
  const [saveError, setSaveError] = useState<unknown>();
  const [saved, setSaved] = useState(false);

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (employee.state !== 'ready') return;
    const current = employee.data;
    const form = event.currentTarget;
    setSaveError(undefined);
    setSaved(false);
    try {
      // toBody keeps exactly the fields of the PUT body: read-only fields and metadata values are left out.
      const body = toBody('PutEmployeeByEmployeeId', {
        ...current,
        personalDetails: { ...current.personalDetails, firstName: field(form, 'firstName').value.trim(), lastName: field(form, 'lastName').value.trim() },
      });
      unwrap(await payroll.PutEmployeeByEmployeeId({ employeeId }, body));
      setSaved(true);
      employee.reload();
      onChanged();
    } catch (caught) {
      setSaveError(caught);
    }
  }

  return (
    <section aria-label="Employee">
      {employee.state === 'loading' && <p role="status">Loading the employee…</p>}
      {employee.state === 'error' && <ErrorNotice error={employee.error} onRetry={employee.reload} />}
      {employee.state === 'ready' && (
        <form aria-label="Edit employee" onSubmit={save} key={employee.data.personalDetails?.formattedName}>
          <h2>{employee.data.personalDetails?.formattedName}</h2>
          <label>
            First name <input name="firstName" defaultValue={employee.data.personalDetails?.firstName ?? ''} required />
          </label>{' '}
          <label>
            Last name <input name="lastName" defaultValue={employee.data.personalDetails?.lastName ?? ''} required />
          </label>{' '}
          <button>Save</button>
          {saved && <span role="status"> Saved.</span>}
          {saveError !== undefined && <ErrorNotice error={saveError} />}
        </form>
      )}
      <h3>Employments</h3>
      {employments.state === 'loading' && <p role="status">Loading employments…</p>}
      {employments.state === 'error' && <ErrorNotice error={employments.error} onRetry={employments.reload} />}
      {employments.state === 'ready' && (
        <ul>
          {employments.data.map((employment) => (
            <li key={employment.id}>
              <Employment payroll={payroll} employment={employment} onTerminated={employments.reload} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Employment({ payroll, employment, onTerminated }: { payroll: Payroll; employment: EmploymentRow; onTerminated: () => void }) {
  const [error, setError] = useState<unknown>();

  async function terminate(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    setError(undefined);
    try {
      unwrap(
        await payroll.PatchTerminateByEmploymentId(
          { employmentId: employment.id! },
          {
            endDate: field(form, 'endDate').value,
            // The contract makes this mandatory whenever endDate is filled: the checkbox always sends true or false.
            endOfEmploymentDueToIllness: field(form, 'illness').checked,
            // Key 8 (Other) unless a pension-reporting integration needs a specific reason.
            endOfEmploymentReason: { key: 8 },
          },
        ),
      );
      onTerminated();
    } catch (caught) {
      setError(caught);
    }
  }

  return (
    <form aria-label={`Employment ${employment.incomeRelationshipNumber ?? ''}`.trim()} onSubmit={terminate}>
      Employment {employment.incomeRelationshipNumber} from {employment.startDate}
      {employment.endDate ? ` until ${employment.endDate}` : ' (ongoing)'}.{' '}
      <label>
        End date <input name="endDate" type="date" required />
      </label>{' '}
      <label>
        <input name="illness" type="checkbox" /> Ends during illness
      </label>{' '}
      <button>{employment.endDate ? 'Change end' : 'Terminate'}</button>
      {error !== undefined && <ErrorNotice error={error} />}
    </form>
  );
}
