// The body of POST /employers/{employerId}/employees (a new employee with an employment and
// its first records) for tests that write through real processes; distinct per n.

/** A citizen service number that passes the 11-test, distinct per n. */
export function bsn(n: number): string {
  const digits = String(200_000_00 + n * 7).padStart(8, '0').split('').map(Number);
  const sum = digits.reduce((total, digit, i) => total + digit * (9 - i), 0);
  for (let last = 0; last <= 9; last++) if ((sum - last) % 11 === 0) return `${digits.join('')}${last}`;
  return bsn(n + 1000);
}

export function newEmployee(employeeNumber: number, n: number) {
  const startDate = '2026-02-01';
  return {
    employeeData: {
      employeeNumber,
      personalDetails: {
        firstName: 'Sanne',
        lastName: `Visser ${n}`,
        initials: 'S.',
        dateOfBirth: '1988-04-02',
        howToFormatLastName: { key: 1 },
        gender: { key: 2 },
        nationality: { key: 1 },
      },
      address: { street: 'Oudegracht', houseNumber: 100 + n, postalCode: '3511 AB', city: 'Utrecht', country: { key: 1 } },
      exclusionFromAbsenceStatus: false,
    },
    employmentData: { typeOfEmployee: { key: 1 }, employmentDurationType: { key: 2 }, incomeRelationshipNumber: 1, temporaryTaxExemption: { key: 1 }, isOnCallEmployment: false, writtenEmploymentContract: true },
    workingHoursData: { startDate, shift: { shiftNumber: 1 }, deviatingHoursPerWeek: 36, regularWorkPattern: true },
    wageData: { startDate, payrollPeriodType: { key: 1 }, grossWage: 3400, grossWageType: { key: 1 }, isGrossWageFullTime: true, applyPayGrade: false },
    socialSecurityData: { startDate, isInsuredForSicknessBenefitsAct: true, isInsuredForUnemploymentInsuranceAct: true, isInsuredForOccupationalDisabilityInsuranceAct: true },
    citizenServiceNumber: { citizenServiceNumber: bsn(n) },
  };
}

