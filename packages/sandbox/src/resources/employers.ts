// Employers (contract §2.4, §4.3 Employer): the lists (full and minimized, by user and by
// provider), creating an employer (the platform assigns its employerNumber), reading and
// replacing one, its child employers for consolidated overviews, the add-employer wizard
// information and the employer's logo (uploaded bytes stored and served back).
import type { BoundFilter, FieldInfo } from '../filter/tree.js';
import { SandboxError, type Handler, type OperationContext, type ResourceModule } from '../domain/context.js';
import { DEFAULT_MODULES } from '../seed/organisation.js';
import { recordNewEmployer } from '../authorization/teams.js';
import { FORMS, LISTED_BY, ORG_COLLECTIONS, checkMetadataKeys, type MetadataScope } from '../domain/reference-data.js';
import type { Doc } from '../store/types.js';
import type { CreateRule } from '../domain/create-rules.js';
import { inputOnly, mustGet, mustHave, omit, whereIn } from '../domain/employments/model.js';
import { checkImageUpload, objectBody } from './providers.js';
import { pureView } from '../domain/views.js';

const detail = (content: unknown) => ({ kind: 'detail' as const, content });

/** Stored on an employer, never shown (see seed/organisation.ts). */
const INTERNAL = ['providerId', 'referenceProfile', 'modules', 'providerLogoId'] as const;

/** What a client may write: every field but the read-only id and employerNumber. */
const EDITABLE = ['companyName', 'chamberOfCommerceNumber', 'sbi', 'legalForm', 'branch', 'providerSettings', 'contact', 'contactInformation', 'address', 'deviatingPostalAddress'] as const;

/** Employer metadata is generic: the same options whatever the context. */
const GENERIC_SCOPE: MetadataScope = { employer: null, administration: null, administrations: [] };

/** employerNumber is unique within a sandbox (the store decides, even between processes). */
const EMPLOYER_NUMBER_RULE = { name: 'employerNumber', fields: ['employerNumber'] };

/** The first number the sandbox hands out when no employer exists. */
const FIRST_EMPLOYER_NUMBER = 10001;

export function employerView(doc: Doc): Record<string, unknown> {
  return omit(doc, INTERNAL);
}

function pick(value: unknown, keys: string[]): Record<string, unknown> | null {
  if (!value || typeof value !== 'object') return null;
  return Object.fromEntries(keys.filter((k) => k in value).map((k) => [k, (value as Record<string, unknown>)[k]]));
}

function minimizedView(doc: Doc): Record<string, unknown> {
  return {
    id: doc.id,
    employerNumber: doc.employerNumber,
    companyName: doc.companyName,
    address: pick(doc.address, ['street', 'houseNumber', 'postalCode', 'city']) ?? {},
    providerSettings: pick(doc.providerSettings, ['administrationNumber', 'groupCode']) ?? {},
    contactInformation: pick(doc.contactInformation, ['phoneNumber']),
    contact: pick(doc.contact, ['name', 'phoneNumber']),
    branch: doc.branch ?? null,
  };
}

function childView(doc: Doc): Record<string, unknown> {
  return {
    id: doc.id,
    employerNumber: doc.employerNumber,
    companyName: doc.companyName,
    providerSettings: pick(doc.providerSettings, ['parentEmployerForConsolidatedOverviews']) ?? {},
  };
}

/** The editable fields of a POST or PUT body, read-only parts dropped and metadata completed from the reference data. */
function editableFields(body: unknown): Record<string, unknown> {
  const input = inputOnly(objectBody(body)) as Record<string, unknown>;
  const fields: Record<string, unknown> = {};
  for (const key of EDITABLE) if (key in input) fields[key] = input[key];
  return checkMetadataKeys(FORMS.employer, GENERIC_SCOPE, fields, LISTED_BY.employer);
}

/** What a new employer requires (the sandbox's choice: the contract does not say which employer
 * fields are mandatory, and an employer without a name cannot be shown); a PUT keeps it. */
const NEW_EMPLOYER_RULE: CreateRule = { required: { companyName: {} } };

const NUMBER_FIELD: FieldInfo = { path: ['employerNumber'], type: 'integer' };

async function nextEmployerNumber(ctx: OperationContext): Promise<number> {
  const highest = await ctx.tx.find(ORG_COLLECTIONS.employers, { orderBy: [{ field: NUMBER_FIELD, descending: true }], limit: 1 });
  const top = highest.rows[0]?.employerNumber;
  return typeof top === 'number' ? top + 1 : FIRST_EMPLOYER_NUMBER;
}

/** Children: employers whose consolidated overviews are made under this one (its employerNumber). */
function childrenOf(parent: Doc, includeParent: boolean): BoundFilter {
  const parentField: FieldInfo = { path: ['providerSettings', 'parentEmployerForConsolidatedOverviews'], type: 'integer' };
  const idField: FieldInfo = { path: ['id'], type: 'string' };
  const children: BoundFilter = {
    kind: 'and',
    left: { kind: 'in', field: parentField, values: [parent.employerNumber as number] },
    right: { kind: 'compare', field: idField, op: 'ne', value: parent.id },
  };
  return includeParent ? { kind: 'or', left: children, right: { kind: 'in', field: idField, values: [parent.id] } } : children;
}

async function employerLogo(ctx: OperationContext): Promise<Doc> {
  const employer = await mustGet(ctx.tx, ORG_COLLECTIONS.employers, ctx.params.employerId!);
  const logo = await ctx.tx.get(ORG_COLLECTIONS.employerLogos, employer.id);
  if (!logo) throw new SandboxError(404);
  return logo;
}

const getEmployerLogo: Handler = async (ctx) => {
  const logo = await employerLogo(ctx);
  return detail({ data: logo.data, mimeType: logo.mimeType });
};

const handlers: Record<string, Handler> = {
  async GetEmployersByUserId(ctx) {
    return { kind: 'list', page: await ctx.list(ORG_COLLECTIONS.employers, { project: pureView(employerView) }) };
  },

  async GetEmployersMinimizedByUserId(ctx) {
    return { kind: 'list', page: await ctx.list(ORG_COLLECTIONS.employers, { project: pureView(minimizedView) }) };
  },

  async GetEmployersMinimizedByProviderId(ctx) {
    const provider = await mustGet(ctx.tx, ORG_COLLECTIONS.providers, ctx.params.providerId!);
    return { kind: 'list', page: await ctx.list(ORG_COLLECTIONS.employers, { where: whereIn(['providerId'], [provider.id]), project: pureView(minimizedView) }) };
  },

  async PostEmployerByProviderId(ctx) {
    const provider = await mustGet(ctx.tx, ORG_COLLECTIONS.providers, ctx.params.providerId!);
    const fields = editableFields(ctx.body);
    const doc: Doc = {
      id: ctx.newId(),
      employerNumber: await nextEmployerNumber(ctx),
      ...fields,
      providerId: provider.id,
      referenceProfile: null,
      modules: [...DEFAULT_MODULES],
      providerLogoId: null,
    };
    await ctx.tx.insert(ORG_COLLECTIONS.employers, doc);
    // Not visible until it is added to a team, and a few minutes after that (§2.4).
    await recordNewEmployer(ctx.tx, doc.id);
    return { kind: 'detail', status: 201, content: employerView(doc) };
  },

  async GetInformationForAddEmployerWizardByProviderId(ctx) {
    await mustHave(ctx.tx, ORG_COLLECTIONS.providers, ctx.params.providerId!);
    // A sandbox caller holds every right until the authorization model narrows it.
    return detail({ isAuthorizedToManageEmployerAuthorizationGroups: true, isAuthorizedToManageEmployerModules: true, isAuthorizedToAddPayrollAdministrations: true });
  },

  async GetEmployerByEmployerId(ctx) {
    return detail(employerView(await mustGet(ctx.tx, ORG_COLLECTIONS.employers, ctx.params.employerId!)));
  },

  async PutEmployerByEmployerId(ctx) {
    const current = await mustGet(ctx.tx, ORG_COLLECTIONS.employers, ctx.params.employerId!);
    const fields = editableFields(ctx.body);
    const kept = Object.fromEntries(Object.entries(current).filter(([key]) => !(EDITABLE as readonly string[]).includes(key)));
    const doc = { ...kept, ...fields } as Doc;
    await ctx.tx.replace(ORG_COLLECTIONS.employers, doc);
    return detail(employerView(doc));
  },

  async GetChildEmployersByEmployerId(ctx) {
    const parent = await mustGet(ctx.tx, ORG_COLLECTIONS.employers, ctx.params.employerId!);
    const includeParent = ctx.query.get('includeParent')?.toLowerCase() === 'true';
    return { kind: 'list', page: await ctx.list(ORG_COLLECTIONS.employers, { where: childrenOf(parent, includeParent), project: pureView(childView) }) };
  },

  GetEmployerLogoByEmployerId: getEmployerLogo,
  // The trailing version is a caching token: same answer as GetEmployerLogoByEmployerId.
  GetEmployerLogoByEmployerIdAndVersion: getEmployerLogo,

  async PostEmployerLogoByEmployerId(ctx) {
    const employer = await mustGet(ctx.tx, ORG_COLLECTIONS.employers, ctx.params.employerId!);
    const body = objectBody(ctx.body) as { data: string; mimeType: string };
    checkImageUpload(body);
    const doc: Doc = { id: employer.id, data: body.data, mimeType: body.mimeType };
    if (!(await ctx.tx.replace(ORG_COLLECTIONS.employerLogos, doc))) await ctx.tx.insert(ORG_COLLECTIONS.employerLogos, doc);
    return { kind: 'detail', status: 201, content: {} };
  },

  async DeleteEmployerLogoByEmployerId(ctx) {
    const logo = await employerLogo(ctx);
    await ctx.tx.remove(ORG_COLLECTIONS.employerLogos, logo.id);
    return detail({});
  },
};

const employers: ResourceModule = {
  collections: [
    {
      name: ORG_COLLECTIONS.employers,
      unique: [EMPLOYER_NUMBER_RULE],
      schema: { api: 'payroll', component: 'Employer' },
      relations: [{ field: 'providerId', collection: ORG_COLLECTIONS.providers, required: true }, { field: 'providerLogoId', collection: ORG_COLLECTIONS.providerLogos }],
    },
    // A logo's id is its employer's.
    { name: ORG_COLLECTIONS.employerLogos, schema: { api: 'payroll', component: 'EmployerLogo' }, relations: [{ field: 'id', collection: ORG_COLLECTIONS.employers }] },
  ],
  handlers,
  creates: { PostEmployerByProviderId: NEW_EMPLOYER_RULE },
};

export default employers;
