import { useQuery } from '@tanstack/react-query';
import type { Queries } from './api.js';
import { QueryState } from './QueryState.js';

/**
 * The employer's first employments by employee number, each with the summary of its employee
 * that the API embeds. An employee's rename reaches this list through the invalidation the
 * package derived from the description: the employment read shape embeds the employee.
 */
export function EmployerEmployments({ api, employerId }: { api: Queries; employerId: string }) {
  const employments = useQuery(api.GetEmploymentsByEmployerId({ employerId, pageSize: 5, orderBy: 'employee.employeeNumber' }));
  return (
    <section aria-label="Employments of the employer">
      <h2>Employments of the employer</h2>
      <QueryState query={employments} loading="Loading the employer’s employments…">
        {(data) => (
          <ul>
            {data._embedded.map((employment) => (
              <li key={employment.id}>
                {employment.employee?.formattedName}: employment {employment.incomeRelationshipNumber} from {employment.startDate}
                {employment.endDate ? ` until ${employment.endDate}` : ''}
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </section>
  );
}
