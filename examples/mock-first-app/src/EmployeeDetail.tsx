import { toBody } from '@payroll-api/client/body';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { RESOURCE_VERSION_DATE, type EmploymentRow, type Queries } from './api.js';
import { ErrorNotice } from './ErrorNotice.js';
import { QueryState } from './QueryState.js';

const field = (form: HTMLFormElement, name: string) => form.elements.namedItem(name) as HTMLInputElement;

/** One employee: edit the name (read, edit, write back), and end an employment. */
export function EmployeeDetail({ api, employeeId }: { api: Queries; employeeId: string }) {
  const employee = useQuery({ ...api.GetEmployeeByEmployeeId({ employeeId }), select: (answer) => answer.content! });
  const employments = useQuery(api.GetEmploymentsByEmployeeId({ employeeId }));
  const [notice, setNotice] = useState('');
  // The package's options with the app's own onSuccess: the invalidation still runs (it lives in
  // mutationFn). It reaches this employee's queries, the employee lists and every employment
  // that embeds the employee: the table and the employer's employments show the new name.
  const edit = useMutation({ ...api.mutation.PutEmployeeByEmployeeId(), onSuccess: (answer) => setNotice(`Saved ${answer.content?.personalDetails?.formattedName ?? ''}.`) });

  function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!employee.data) return;
    const current = employee.data;
    const form = event.currentTarget;
    // toBody keeps exactly the fields of the PUT body at the app's version: read-only fields and metadata values are left out.
    const body = toBody(
      'PutEmployeeByEmployeeId',
      {
        ...current,
        personalDetails: { ...current.personalDetails, firstName: field(form, 'firstName').value.trim(), lastName: field(form, 'lastName').value.trim() },
      },
      RESOURCE_VERSION_DATE,
    );
    edit.mutate({ params: { employeeId }, body });
  }

  return (
    <section aria-label="Employee">
      <QueryState query={employee} loading="Loading the employee…">
        {(current) => (
          <form aria-label="Edit employee" onSubmit={save} key={current.personalDetails?.formattedName}>
            <h2>{current.personalDetails?.formattedName}</h2>
            <label>
              First name <input name="firstName" defaultValue={current.personalDetails?.firstName ?? ''} required />
            </label>{' '}
            <label>
              Last name <input name="lastName" defaultValue={current.personalDetails?.lastName ?? ''} required />
            </label>{' '}
            <button disabled={edit.isPending}>Save</button>
            {edit.isSuccess && notice && <span role="status"> {notice}</span>}
            {edit.isError && <ErrorNotice error={edit.error} />}
          </form>
        )}
      </QueryState>
      <h3>Employments</h3>
      <QueryState query={employments} loading="Loading employments…">
        {(data) => (
          <ul>
            {data._embedded.map((employment) => (
              <li key={employment.id}>
                <Employment api={api} employment={employment} />
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </section>
  );
}

function Employment({ api, employment }: { api: Queries; employment: EmploymentRow }) {
  // Invalidates the employment's queries and every employment list: this row shows the end date.
  const terminate = useMutation(api.mutation.PatchTerminateByEmploymentId());

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    terminate.mutate({
      params: { employmentId: employment.id! },
      body: {
        endDate: field(form, 'endDate').value,
        // The contract makes this mandatory whenever endDate is filled: the checkbox always sends true or false.
        endOfEmploymentDueToIllness: field(form, 'illness').checked,
        // Key 8 (Other) unless a pension-reporting integration needs a specific reason.
        endOfEmploymentReason: { key: 8 },
      },
    });
  }

  return (
    <form aria-label={`Employment ${employment.incomeRelationshipNumber ?? ''}`.trim()} onSubmit={submit}>
      Employment {employment.incomeRelationshipNumber} from {employment.startDate}
      {employment.endDate ? ` until ${employment.endDate}` : ' (ongoing)'}.{' '}
      <label>
        End date <input name="endDate" type="date" required />
      </label>{' '}
      <label>
        <input name="illness" type="checkbox" /> Ends during illness
      </label>{' '}
      <button disabled={terminate.isPending}>{employment.endDate ? 'Change end' : 'Terminate'}</button>
      {terminate.isError && <ErrorNotice error={terminate.error} />}
    </form>
  );
}
