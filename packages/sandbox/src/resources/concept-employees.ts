// Concept employees (contract §2.8, §4.3 Concept employee): draft employees registered with
// validations disabled. Only uniqueName (1..255 characters) is required; the employee's own
// rules (employee number, citizen service number, ...) do not apply. Metadata keys are still
// checked against the options of the employer's context, because a key that is no option has
// no value to show.
//
// One stored doc holds the full shape; the minimized shape is a view of it, so a PUT of
// either view changes what the other shows:
//   minimized personalDetails / contactInformation / identityDocument / address
//     = full employeeData.personalDetails / .contactInformation / .identityDocument / .address
//   minimized applyPayrollTaxDeduction = full fiscalData.applyPayrollTaxDeduction
//   minimized iban: stored on the concept employee (the full shape has no iban field).
import { message } from '../http/errors.js';
import { dereferencer } from '../http/operation.js';
import type { Validator } from '../schema/compile.js';
import { compileFirstProblem } from '../domain/doc-schemas.js';
import { SandboxError, type Handler, type OperationContext, type ResourceModule } from '../domain/context.js';
import { FORMS, LISTED_BY, ORG_COLLECTIONS, checkMetadataKeys, metadataScope } from '../domain/reference-data.js';
import type { Doc } from '../store/types.js';
import { conceptEmployeePart } from '../seed/organisation.js';
import { inputOnly, mustGet, whereIn } from '../domain/employments/model.js';
import { objectBody } from './providers.js';
import { createProblems, type CreateRule } from '../domain/create-rules.js';
import { pureView } from '../domain/views.js';

const detail = (content: unknown) => ({ kind: 'detail' as const, content });

/** The sections of the full shape besides uniqueName and employeeData. */
const SECTIONS = ['employmentData', 'workingHoursData', 'wageData', 'organizationalEntityData', 'socialSecurityData', 'fiscalData', 'otherPayrollVariablesData'] as const;

/** The sections that are dated records (all but employmentData): each is the draft's first record of its kind, with a record id. */
const DATED_SECTIONS: ReadonlySet<string> = new Set(SECTIONS.filter((s) => s !== 'employmentData'));

/** The employee fields the minimized shape shares with employeeData. */
const SHARED_EMPLOYEE_FIELDS = ['personalDetails', 'contactInformation', 'identityDocument', 'address'] as const;

const UNIQUE_NAME_MAX = 255;

type Body = Record<string, unknown>;

const isObject = (value: unknown): value is Body => typeof value === 'object' && value !== null && !Array.isArray(value);

function refuse(description: string, field: string): SandboxError {
  return new SandboxError(400, [message(400, description, [field])]);
}

/**
 * The one rule of a concept employee: a uniqueName of 1 to 255 characters. The engine holds the
 * POST to it; the full PUT, which replaces the whole shape and has no body in the description,
 * checks its body with it before anything else.
 */
const NEW_CONCEPT_EMPLOYEE_RULE: CreateRule = {
  required: { uniqueName: {} },
  check: ({ uniqueName }) =>
    typeof uniqueName === 'string' && [...uniqueName].length > UNIQUE_NAME_MAX ? [message(400, `The field uniqueName holds at most ${UNIQUE_NAME_MAX} characters.`, ['uniqueName'])] : [],
};

/** Without read-only parts: ids of the employee and the dated sections, the self-service status, computed names. */
function withoutReadOnly(section: unknown): unknown {
  if (!isObject(section)) return section;
  const { id: _id, statusEmployeeSelfService: _status, ...rest } = inputOnly(section) as Body;
  return rest;
}

/**
 * The full shape from a request body: uniqueName checked, read-only parts dropped, sections
 * not sent stored as null, metadata checked and completed in the employer's context. A PUT
 * (whose body the description does not show) is checked for the full shape's structure here,
 * since no schema is applied before the handler. The read-only ids are the sandbox's: the
 * employee part has the concept employee's GUID (the promoted employee keeps it, §2.8), and a
 * dated section keeps the record id it had (`current`), or gets a new one.
 */
async function fullFromBody(ctx: OperationContext, employerId: string, raw: unknown, id: string, current?: Doc): Promise<Body> {
  if (!isObject(raw)) throw refuse('The request body must be a concept employee object.', 'body');
  const known = new Set<string>(['id', 'uniqueName', 'employeeData', ...SECTIONS]);
  const unknown = Object.keys(raw).filter((key) => !known.has(key));
  if (unknown.length > 0) throw new SandboxError(400, unknown.map((key) => message(400, `The field ${key} is not a field of a concept employee.`, [key])));
  const full: Body = { uniqueName: raw.uniqueName };
  for (const key of ['employeeData', ...SECTIONS]) {
    const value = raw[key] ?? null;
    if (value !== null && !isObject(value)) throw refuse(`The field ${key} must be an object${key === 'employeeData' ? '' : ' or null'}.`, key);
    const section = withoutReadOnly(value);
    const recordId = (current?.[key] as Body | null | undefined)?.id;
    full[key] = isObject(section) && DATED_SECTIONS.has(key) ? { id: typeof recordId === 'string' ? recordId : ctx.newId(), ...section } : section;
  }
  full.employeeData = conceptEmployeePart(id, (full.employeeData as Body | null) ?? {});
  return checkMetadataKeys(FORMS.conceptEmployee, await metadataScope(ctx.tx, employerId), full, LISTED_BY.conceptEmployee);
}

/**
 * The body of an operation whose description declares none (PutConceptEmployeeByConceptEmployeeId):
 * the sandbox reads it as JSON, as the full shape's POST sends it.
 */
function undeclaredJsonBody(ctx: OperationContext): unknown {
  const raw = ctx.body;
  if (!(raw instanceof Uint8Array) && typeof raw !== 'string') return raw;
  const type = String(ctx.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (!/^application\/(?:[\w.+-]+\+)?json$/.test(type)) throw refuse('The request body must be JSON (Content-Type: application/json).', 'Content-Type');
  try {
    return JSON.parse(typeof raw === 'string' ? raw : new TextDecoder().decode(raw));
  } catch (error) {
    throw refuse(`The request body is not valid JSON: ${(error as Error).message}.`, 'body');
  }
}

/** The full concept employee's schema, compiled once per loaded description. */
const fullShapes = new WeakMap<object, Validator>();

/**
 * Checks a body no schema was applied to (the full PUT) against the full concept employee's
 * schema, as the POST's body is; the first problems name their fields.
 */
function checkFullShape(description: Record<string, unknown>, body: unknown): void {
  let fullShape = fullShapes.get(description);
  if (!fullShape) {
    fullShape = compileFirstProblem(dereferencer(description)({ $ref: '#/components/schemas/ConceptEmployee' }));
    fullShapes.set(description, fullShape);
  }
  if (fullShape(body)) return;
  const messages = (fullShape.errors ?? []).slice(0, 5).map((error) => {
    const segments = error.instancePath.split('/').slice(1);
    const missing = (error.params as { missingProperty?: string }).missingProperty;
    const field = [...segments, ...(missing ? [missing] : [])].join('.') || 'body';
    return message(400, `The field ${field} ${error.message ?? 'is not valid'}.`, [field]);
  });
  throw new SandboxError(400, messages);
}

export function conceptEmployeeView(doc: Doc): Body {
  const { employerId: _employer, iban: _iban, ...view } = doc;
  return view;
}

export function conceptEmployeeMinimizedView(doc: Doc): Body {
  const employee = (doc.employeeData as Body | null) ?? {};
  const fiscal = doc.fiscalData as Body | null;
  const view: Body = {
    personalDetails: employee.personalDetails ?? {},
    contactInformation: employee.contactInformation ?? null,
    identityDocument: employee.identityDocument ?? null,
    address: employee.address ?? null,
    iban: doc.iban ?? null,
  };
  if (fiscal && typeof fiscal.applyPayrollTaxDeduction === 'boolean') view.applyPayrollTaxDeduction = fiscal.applyPayrollTaxDeduction;
  return view;
}

async function conceptEmployee(ctx: OperationContext): Promise<Doc> {
  return mustGet(ctx.tx, ORG_COLLECTIONS.conceptEmployees, ctx.params.conceptEmployeeId!);
}

const handlers: Record<string, Handler> = {
  async GetConceptEmployeesByEmployerId(ctx) {
    const employer = await mustGet(ctx.tx, ORG_COLLECTIONS.employers, ctx.params.employerId!);
    return { kind: 'list', page: await ctx.list(ORG_COLLECTIONS.conceptEmployees, { where: whereIn(['employerId'], [employer.id]), project: pureView(conceptEmployeeView) }) };
  },

  async PostConceptEmployeeByEmployerId(ctx) {
    const employer = await mustGet(ctx.tx, ORG_COLLECTIONS.employers, ctx.params.employerId!);
    const id = ctx.newId();
    const full = await fullFromBody(ctx, employer.id, ctx.body, id);
    const doc: Doc = { id, ...full, employerId: employer.id, iban: null };
    await ctx.tx.insert(ORG_COLLECTIONS.conceptEmployees, doc);
    return { kind: 'detail', status: 201, content: conceptEmployeeView(doc) };
  },

  async GetConceptEmployeeByConceptEmployeeId(ctx) {
    return detail(conceptEmployeeView(await conceptEmployee(ctx)));
  },

  async PutConceptEmployeeByConceptEmployeeId(ctx) {
    const current = await conceptEmployee(ctx);
    const body = undeclaredJsonBody(ctx);
    const problems = createProblems(NEW_CONCEPT_EMPLOYEE_RULE, body);
    if (problems.length > 0) throw new SandboxError(400, problems);
    checkFullShape(ctx.description, body);
    const full = await fullFromBody(ctx, current.employerId as string, body, current.id, current);
    await ctx.tx.replace(ORG_COLLECTIONS.conceptEmployees, { id: current.id, ...full, employerId: current.employerId, iban: current.iban ?? null });
    // The description shows no body for this answer.
    return { kind: 'raw', status: 200 };
  },

  async GetConceptEmployeeMinimizedByConceptEmployeeId(ctx) {
    return detail(conceptEmployeeMinimizedView(await conceptEmployee(ctx)));
  },

  async PutConceptEmployeeMinimizedByConceptEmployeeId(ctx) {
    const current = await conceptEmployee(ctx);
    const scope = await metadataScope(ctx.tx, current.employerId as string);
    const body = checkMetadataKeys(FORMS.conceptEmployeeMinimized, scope, inputOnly(objectBody(ctx.body)) as Body, LISTED_BY.conceptEmployeeMinimized);
    const employee: Body = { ...((current.employeeData as Body | null) ?? {}) };
    for (const key of SHARED_EMPLOYEE_FIELDS) {
      const value = body[key] ?? (key === 'personalDetails' ? {} : null);
      // The employee part's contact information is never null: none given is none kept (the minimized view shows null).
      if (key === 'contactInformation' && value === null) delete employee[key];
      else employee[key] = value;
    }
    const computed = conceptEmployeePart(current.id, employee);
    const fiscal: Body | null = current.fiscalData ? { ...(current.fiscalData as Body) } : typeof body.applyPayrollTaxDeduction === 'boolean' ? {} : null;
    if (fiscal) {
      if (typeof body.applyPayrollTaxDeduction === 'boolean') fiscal.applyPayrollTaxDeduction = body.applyPayrollTaxDeduction;
      else delete fiscal.applyPayrollTaxDeduction;
    }
    const doc: Doc = { ...current, employeeData: computed, fiscalData: fiscal, iban: body.iban ?? null };
    await ctx.tx.replace(ORG_COLLECTIONS.conceptEmployees, doc);
    // The description answers the (full) concept employee here (ConceptEmployeeDetail).
    return detail(conceptEmployeeView(doc));
  },
};

const conceptEmployees: ResourceModule = {
  collections: [{ name: ORG_COLLECTIONS.conceptEmployees, schema: { api: 'payroll', component: 'ConceptEmployee' }, relations: [{ field: 'employerId', collection: ORG_COLLECTIONS.employers, required: true }] }],
  handlers,
  creates: { PostConceptEmployeeByEmployerId: NEW_CONCEPT_EMPLOYEE_RULE },
};

export default conceptEmployees;
