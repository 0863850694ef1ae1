// The running mock of one test file and that file's own sandbox in it, through the typed
// clients: started before the file's tests, stopped after them.
import { afterAll, beforeAll } from 'vitest';
import { createPayrollClient } from '../src/index.js';
import { createSandboxControl, type SandboxControl } from '../src/sandbox.js';
import { EMPLOYEE_FIXTURES } from './fixture-versions.js';
import { startMock, type RunningMock } from './mock-server.js';

/** The seeded employer the samples address. */
export const EMPLOYER = '9c3a8a5e-2f7d-4b8e-a1c4-5d6e7f8a9b0c';

/** A payroll client of the mock at `origin`, as `auth` reaches it; it writes and reads employees
 * in the shape of EMPLOYEE_FIXTURES, as the scenarios make them. */
const payrollClient = (origin: string, auth: string) => createPayrollClient({ baseUrl: `${origin}/v2`, auth, retry: false, resourceVersionDate: EMPLOYEE_FIXTURES });

export interface SandboxSession {
  /** The bearer token of the file's own sandbox: the file's prefix and the time of the run. */
  readonly token: string;
  /** The running mock's origin. */
  readonly origin: string;
  /** The control client of the file's own sandbox. */
  readonly control: SandboxControl;
  /** A payroll client of the sandbox `token` reaches (see payrollClient). */
  payrollAs(token: string): ReturnType<typeof payrollClient>;
}

export function useSandboxSession(tokenPrefix: string): SandboxSession {
  const token = `${tokenPrefix}-${Date.now()}`;
  let mock: RunningMock | undefined;
  let control: SandboxControl | undefined;
  beforeAll(async () => {
    mock = await startMock();
    control = createSandboxControl({ baseUrl: mock.origin, token });
  });
  afterAll(async () => {
    await mock?.stop();
  });
  const running = () => {
    if (!mock || !control) throw new Error('the mock runs only while the file\'s tests do');
    return { mock, control };
  };
  return {
    token,
    get origin() {
      return running().mock.origin;
    },
    get control() {
      return running().control;
    },
    payrollAs: (auth) => payrollClient(running().mock.origin, auth),
  };
}
