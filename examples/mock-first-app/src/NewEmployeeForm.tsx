import { useMutation } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import type { Payroll, Queries } from './api.js';
import { ErrorNotice } from './ErrorNotice.js';

type NewEmployee = Parameters<Payroll['PostEmployeeByEmployerId']>[1];

/**
 * A new employee with their first employment. The form asks for what differs per person; the
 * rest is this app's defaults for a full-time monthly employee (a real app would ask more).
 */
export function newEmployeeBody(form: { firstName: string; lastName: string; dateOfBirth: string; startDate: string }): NewEmployee {
  const { startDate } = form;
  return {
    employeeData: {
      personalDetails: {
        firstName: form.firstName,
        lastName: form.lastName,
        initials: `${form.firstName.charAt(0).toUpperCase()}.`,
        dateOfBirth: form.dateOfBirth,
        howToFormatLastName: { key: 1 },
        nationality: { key: 1 },
        gender: { key: 1 },
        civilStatus: { key: 1 },
      },
      address: { street: 'Herestraat', houseNumber: 15, postalCode: '9711 LA', city: 'Groningen', country: { key: 1 } },
    },
    employmentData: { typeOfEmployee: { key: 1 }, employmentDurationType: { key: 2 }, incomeRelationshipNumber: 1, isOnCallEmployment: false },
    workingHoursData: { startDate, shift: { shiftNumber: 1 } },
    wageData: { startDate, payrollPeriodType: { key: 1 }, grossWage: 3150, grossWageType: { key: 1 }, isGrossWageFullTime: true, applyPayGrade: false },
    organizationalEntityData: { startDate },
    socialSecurityData: { startDate, isInsuredForSicknessBenefitsAct: true, isInsuredForUnemploymentInsuranceAct: true, isInsuredForOccupationalDisabilityInsuranceAct: true },
    fiscalData: { startDate, applyPayrollTaxDeduction: true, applyDayTables: false },
  };
}

export function NewEmployeeForm({ api, employerId, onCreated }: { api: Queries; employerId: string; onCreated: (employeeId: string) => void }) {
  // Invalidates this employer's employee lists (derived from the description): the table shows the new employee.
  const create = useMutation(api.mutation.PostEmployeeByEmployerId());

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const value = (name: string) => (form.elements.namedItem(name) as HTMLInputElement).value.trim();
    create.mutate(
      {
        params: { employerId },
        body: newEmployeeBody({ firstName: value('firstName'), lastName: value('lastName'), dateOfBirth: value('dateOfBirth'), startDate: value('startDate') }),
      },
      {
        onSuccess: (created) => {
          form.reset();
          onCreated(created.content!.employeeId!);
        },
      },
    );
  }

  return (
    <form aria-label="New employee" onSubmit={submit}>
      <h2>New employee</h2>
      <label>
        First name <input name="firstName" required />
      </label>{' '}
      <label>
        Last name <input name="lastName" required />
      </label>{' '}
      <label>
        Date of birth <input name="dateOfBirth" type="date" required />
      </label>{' '}
      <label>
        Start date <input name="startDate" type="date" required />
      </label>{' '}
      <button disabled={create.isPending}>{create.isPending ? 'Adding…' : 'Add employee'}</button>
      {create.isError && <ErrorNotice error={create.error} />}
    </form>
  );
}
