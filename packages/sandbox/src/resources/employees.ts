// Employees in the sandbox (contract §2.7, §4.3 Employee): the list and its exports, GET/PUT,
// the e-mail patch, the citizen service number, photos, creating an employee with its first
// employment (PostEmployeeByEmployerId) and the self-service revocation date.
import { fromBase64 } from '../util/bytes.js';
import type { Handler, OperationContext, ResourceModule } from '../domain/context.js';
import { SandboxError, withReads } from '../domain/context.js';
import type { Doc, FindQuery } from '../store/types.js';
import {
  COLLECTIONS,
  EMPLOYEE_NUMBER_RULE,
  checkCitizenServiceNumber,
  computeEmployee,
  employeeSummary,
  employeeView,
  inputOnly,
  mustGet,
  mustHaveEmployer,
  refuse,
  whereIn,
  withUniqueEmployeeNumber,
} from '../domain/employments/model.js';
import { revocationDue } from '../domain/employments/person.js';
import { NEW_EMPLOYEE_RULE, createEmployeeWithEmployment } from '../domain/employments/new-employee.js';
import { FORMS, LISTED_BY, ORG_COLLECTIONS, checkMetadataKeys, metadataScope } from '../domain/reference-data.js';
import { BASE64 } from './providers.js';
import { pureViewsBy } from '../domain/views.js';

const detail = (content: unknown = {}) => ({ kind: 'detail' as const, content });

/** The e-mail pattern the sandbox applies (the contract's own pattern is not shown): local@domain.tld, no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The photo types served (as the production service's description lists them), by uploaded mime type. */
export const PHOTO_TYPES: Record<string, string> = { 'image/jpeg': 'image/jpeg', 'image/jpg': 'image/jpeg', 'image/png': 'image/png' };

/** Blocks self-service for good once its revocation date has passed (the nightly task), before the date changes. */
function applyDueRevocation(doc: Doc, today: string): Doc {
  return revocationDue(doc.revokeEmployeeSelfServiceAccessOn as string | null, today) ? { ...doc, selfServiceBlocked: true } : doc;
}

async function employee(ctx: OperationContext): Promise<Doc> {
  return mustGet(ctx.tx, COLLECTIONS.employees, ctx.params.employeeId!);
}

/** The find of an employee's employments (a PUT names it as a read it makes first). */
const employmentsOfQuery = (employeeId: string): FindQuery => ({ where: whereIn(['employeeId'], [employeeId]) });

/** The employee's employments, which carry the employee's summary. */
async function employmentsOf(ctx: OperationContext, employeeId: string): Promise<Doc[]> {
  return (await ctx.tx.find(COLLECTIONS.employments, employmentsOfQuery(employeeId))).rows;
}

/** A changed employee refreshes the summary its employments carry. */
async function refreshEmploymentSummaries(ctx: OperationContext, person: Doc, employments: Doc[]): Promise<void> {
  for (const employment of employments) await ctx.tx.replace(COLLECTIONS.employments, { ...employment, employee: employeeSummary(person) });
}

async function photoReply(ctx: OperationContext) {
  await employee(ctx);
  const photo = await ctx.tx.get(COLLECTIONS.employeePhotos, ctx.params.employeeId!);
  if (!photo) throw new SandboxError(404);
  return { kind: 'raw' as const, status: 200, body: fromBase64(photo.data as string), contentType: photo.mimeType as string };
}

/** The employees as a list answers them on a sandbox date (the view reads the date: self-service access may be revoked by then). */
const employeeViewOn = pureViewsBy((today: string) => (doc: Doc) => employeeView(doc, today));

const handlers: Record<string, Handler> = {
  async GetEmployeesByEmployerId(ctx) {
    const employerId = ctx.params.employerId!;
    await mustHaveEmployer(ctx.tx, employerId);
    const page = await ctx.list(COLLECTIONS.employees, { where: whereIn(['employerId'], [employerId]), project: employeeViewOn(ctx.today) });
    return { kind: 'list', page };
  },

  async GetEmployeeByEmployeeId(ctx) {
    return detail(employeeView(await employee(ctx), ctx.today));
  },

  PutEmployeeByEmployeeId: withReads(async (ctx) => {
    const today = ctx.today;
    // Read together (a store may answer both in one round trip); the replace of the employee
    // leaves the employments as they are.
    const [found, employments] = await Promise.all([employee(ctx), employmentsOf(ctx, ctx.params.employeeId!)]);
    const current = applyDueRevocation(found, today);
    const body = checkMetadataKeys(FORMS.employee, await metadataScope(ctx.tx, current.employerId as string), inputOnly(ctx.body) as Record<string, unknown>, LISTED_BY.employee);
    const { id: _id, statusEmployeeSelfService: _status, ...editable } = body;
    const next = computeEmployee({
      id: current.id,
      employerId: current.employerId,
      citizenServiceNumber: current.citizenServiceNumber ?? null,
      emailAddress: current.emailAddress ?? null,
      selfServiceBlocked: current.selfServiceBlocked ?? false,
      hasTwoFactorAuthentication: current.hasTwoFactorAuthentication ?? false,
      statusEmployeeSelfService: current.statusEmployeeSelfService,
      employeeNumber: current.employeeNumber,
      revokeEmployeeSelfServiceAccessOn: null,
      ...editable,
    });
    await withUniqueEmployeeNumber('employeeNumber', () => ctx.tx.replace(COLLECTIONS.employees, next));
    await refreshEmploymentSummaries(ctx, next, employments);
    return detail(employeeView(next, today));
  }, ({ employeeId }) => [
    { collection: COLLECTIONS.employees, id: employeeId! },
    { collection: COLLECTIONS.employments, query: employmentsOfQuery(employeeId!) },
  ]),

  async PatchEmailByEmployeeId(ctx) {
    const current = await employee(ctx);
    const { emailAddress = null } = (ctx.body ?? {}) as { emailAddress?: string | null };
    if (emailAddress !== null && (emailAddress.length > 255 || !EMAIL_PATTERN.test(emailAddress))) {
      throw refuse('The e-mail address must look like name@domain.tld (no spaces) and have at most 255 characters.', 'emailAddress');
    }
    await ctx.tx.replace(COLLECTIONS.employees, { ...current, emailAddress });
    return detail();
  },

  async GetCitizenServiceNumberByEmployeeId(ctx) {
    const current = await employee(ctx);
    return detail({ citizenServiceNumber: current.citizenServiceNumber ?? null });
  },

  async PutCitizenServiceNumberByEmployeeId(ctx) {
    const current = await employee(ctx);
    const value = ctx.body === undefined ? null : ctx.body;
    checkCitizenServiceNumber(value, 'citizenServiceNumber');
    await ctx.tx.replace(COLLECTIONS.employees, { ...current, citizenServiceNumber: value });
    return detail(value);
  },

  GetEmployeePhotoByEmployeeId: photoReply,
  // The version segment is a caching token: it has no effect on the photo served.
  GetEmployeePhotoByEmployeeIdAndVersion: photoReply,

  async PostEmployeePhotoByEmployeeId(ctx) {
    await employee(ctx);
    const { data, mimeType } = ctx.body as { data: string; mimeType: string };
    if (data.length === 0 || !BASE64.test(data)) throw refuse('The photo data must be a non-empty base64 string.', 'data');
    const type = PHOTO_TYPES[mimeType.toLowerCase()];
    if (!type) throw refuse('The photo must be a jpeg or png image (mime type image/jpeg, image/jpg or image/png).', 'mimeType');
    const photo = { id: ctx.params.employeeId!, data, mimeType: type };
    if (!(await ctx.tx.replace(COLLECTIONS.employeePhotos, photo))) await ctx.tx.insert(COLLECTIONS.employeePhotos, photo);
    return { kind: 'raw', status: 201 };
  },

  async DeleteEmployeePhotoByEmployeeId(ctx) {
    await employee(ctx);
    if (!(await ctx.tx.remove(COLLECTIONS.employeePhotos, ctx.params.employeeId!))) throw new SandboxError(404);
    return detail();
  },

  async PostEmployeeByEmployerId(ctx) {
    const ids = await createEmployeeWithEmployment(ctx, ctx.params.employerId!, ctx.body as Record<string, unknown>);
    return { kind: 'detail', status: 201, content: ids };
  },

  async PatchRevokeEmployeeSelfServiceAccessByEmployeeId(ctx) {
    const current = applyDueRevocation(await employee(ctx), ctx.today);
    const { revokeEmployeeSelfServiceAccessOn = null } = (ctx.body ?? {}) as { revokeEmployeeSelfServiceAccessOn?: string | null };
    // Setting or clearing the date never unblocks: selfServiceBlocked stays as the nightly task left it.
    await ctx.tx.replace(COLLECTIONS.employees, { ...current, revokeEmployeeSelfServiceAccessOn });
    return detail();
  },
};

const employees: ResourceModule = {
  collections: [
    { name: COLLECTIONS.employees, unique: [EMPLOYEE_NUMBER_RULE], schema: { api: 'payroll', component: 'Employee' }, relations: [{ field: 'employerId', collection: ORG_COLLECTIONS.employers, required: true }] },
    // A photo's id is its employee's.
    { name: COLLECTIONS.employeePhotos, schema: { api: 'payroll', component: 'Base64FileUpload' }, relations: [{ field: 'id', collection: COLLECTIONS.employees }] },
  ],
  handlers,
  creates: { PostEmployeeByEmployerId: NEW_EMPLOYEE_RULE },
};

export default employees;
