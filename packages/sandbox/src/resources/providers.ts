// The provider (contract §2.3, §4.3 Provider): the user's provider, its contact information
// (answered without envelope), its logos (uploaded bytes stored and served back, §8 limits)
// and the deviating provider logo of an employer.
import { message } from '../http/errors.js';
import { SandboxError, type Handler, type OperationContext, type ResourceModule } from '../domain/context.js';
import { ORG_COLLECTIONS } from '../domain/reference-data.js';
import type { Doc, Tx } from '../store/types.js';
import { mustGet, whereIn } from '../domain/employments/model.js';
import { pureView } from '../domain/views.js';

const detail = (content: unknown) => ({ kind: 'detail' as const, content });

/** §8: a logo's attribute is at most 10 characters, its name at most 50. */
export const LOGO_LIMITS = { attribute: 10, name: 50 } as const;

/** Base64 as RFC 4648 writes it, without line breaks. */
export const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** An image media type (the sandbox's choice: logos are images). */
const IMAGE_MEDIA_TYPE = /^image\/[A-Za-z0-9][\w.+-]*$/;

/** The request body as a JSON object, or a 400 naming the body (a handler never reads fields of anything else). */
export function objectBody(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new SandboxError(400, [message(400, 'The request body must be a JSON object.', ['body'])]);
  return body as Record<string, unknown>;
}

/** What is wrong with an uploaded file ({data, mimeType}), by field: data must be non-empty base64 and mimeType an image media type. */
export function imageUploadProblems(body: { data?: unknown; mimeType?: unknown }): Array<{ field: 'data' | 'mimeType'; problem: string }> {
  const problems: Array<{ field: 'data' | 'mimeType'; problem: string }> = [];
  if (typeof body.data !== 'string' || body.data.length === 0 || !BASE64.test(body.data)) problems.push({ field: 'data', problem: 'The field data must hold the file, base64 encoded (RFC 4648, no line breaks).' });
  if (typeof body.mimeType !== 'string' || !IMAGE_MEDIA_TYPE.test(body.mimeType)) problems.push({ field: 'mimeType', problem: 'The field mimeType must be the media type of an image, e.g. image/png.' });
  return problems;
}

/** Refuses an uploaded file imageUploadProblems finds wrong, every refused field named in one 400. */
export function checkImageUpload(body: { data?: unknown; mimeType?: unknown }): void {
  const problems = imageUploadProblems(body);
  if (problems.length > 0) throw new SandboxError(400, problems.map((p) => message(400, p.problem, [p.field])));
}

function checkLogo(body: Record<string, unknown>): void {
  const messages = [];
  for (const [field, max] of Object.entries(LOGO_LIMITS)) {
    const value = body[field];
    if (typeof value === 'string' && [...value].length > max) {
      messages.push(message(400, `The field ${field} may hold at most ${max} characters.`, [field]));
    }
  }
  if (messages.length > 0) throw new SandboxError(400, messages);
  checkImageUpload(body);
}

/** A provider as its list shows it. */
const providerListView = pureView((doc: Doc) => ({ id: doc.id, name: doc.name }));

/** A provider logo as the API shows it. */
function logoView(doc: Doc): Record<string, unknown> {
  const { providerId: _provider, createdAt: _created, ...view } = doc;
  return view;
}

/** The editable fields of a logo from a request body (absent optional fields are cleared). */
function logoFields(body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { data: body.data, mimeType: body.mimeType };
  if (typeof body.attribute === 'string') out.attribute = body.attribute;
  if (typeof body.name === 'string') out.name = body.name;
  return out;
}

async function providerLogos(tx: Tx, providerId: string): Promise<Doc[]> {
  return (await tx.find(ORG_COLLECTIONS.providerLogos, { where: whereIn(['providerId'], [providerId]) })).rows;
}

/** The provider's own logo: its earliest uploaded logo (the sandbox's reading of "the logo of the provider"). */
async function providerOwnLogo(ctx: OperationContext): Promise<Doc> {
  const provider = await mustGet(ctx.tx, ORG_COLLECTIONS.providers, ctx.params.providerId!);
  const logos = await providerLogos(ctx.tx, provider.id);
  logos.sort((a, b) => String(a.createdAt).localeCompare(String(b.createdAt)) || a.id.localeCompare(b.id));
  const first = logos[0];
  if (!first) throw new SandboxError(404);
  return first;
}

/** The deviating provider logo an employer has, or 404 (none set, or the logo was deleted). */
async function employerProviderLogo(ctx: OperationContext): Promise<Doc> {
  const employer = await mustGet(ctx.tx, ORG_COLLECTIONS.employers, ctx.params.employerId!);
  const logoId = employer.providerLogoId;
  const logo = typeof logoId === 'string' ? await ctx.tx.get(ORG_COLLECTIONS.providerLogos, logoId) : undefined;
  if (!logo) throw new SandboxError(404);
  return logo;
}

const getProviderLogo: Handler = async (ctx) => detail(logoView(await providerOwnLogo(ctx)));
const getProviderLogoByEmployerId: Handler = async (ctx) => detail(logoView(await employerProviderLogo(ctx)));

const handlers: Record<string, Handler> = {
  async GetProvidersByUser(ctx) {
    return { kind: 'list', page: await ctx.list(ORG_COLLECTIONS.providers, { project: providerListView }) };
  },

  GetProviderLogo: getProviderLogo,
  // The trailing version is a caching token: same answer as GetProviderLogo.
  GetProviderLogoAndVersion: getProviderLogo,

  async GetProviderContactInformationByProviderId(ctx) {
    const provider = await mustGet(ctx.tx, ORG_COLLECTIONS.providers, ctx.params.providerId!);
    return { kind: 'raw', status: 200, body: { id: provider.id, name: provider.name, contact: provider.contact, address: provider.address } };
  },

  async GetProviderLogosByProviderId(ctx) {
    const provider = await mustGet(ctx.tx, ORG_COLLECTIONS.providers, ctx.params.providerId!);
    return { kind: 'list', page: await ctx.list(ORG_COLLECTIONS.providerLogos, { where: whereIn(['providerId'], [provider.id]), project: pureView(logoView) }) };
  },

  async PostProviderLogoByProviderId(ctx) {
    const provider = await mustGet(ctx.tx, ORG_COLLECTIONS.providers, ctx.params.providerId!);
    const body = objectBody(ctx.body);
    checkLogo(body);
    const doc: Doc = { id: ctx.newId(), providerId: provider.id, ...logoFields(body), createdAt: ctx.now.toISOString() };
    await ctx.tx.insert(ORG_COLLECTIONS.providerLogos, doc);
    return { kind: 'detail', status: 201, content: logoView(doc) };
  },

  async GetProviderLogoByLogoId(ctx) {
    return detail(logoView(await mustGet(ctx.tx, ORG_COLLECTIONS.providerLogos, ctx.params.logoId!)));
  },

  async PutProviderLogoByLogoId(ctx) {
    const current = await mustGet(ctx.tx, ORG_COLLECTIONS.providerLogos, ctx.params.logoId!);
    const body = objectBody(ctx.body);
    checkLogo(body);
    const doc: Doc = { id: current.id, providerId: current.providerId, ...logoFields(body), createdAt: current.createdAt };
    await ctx.tx.replace(ORG_COLLECTIONS.providerLogos, doc);
    return detail(logoView(doc));
  },

  async DeleteProviderLogoByLogoId(ctx) {
    const logo = await mustGet(ctx.tx, ORG_COLLECTIONS.providerLogos, ctx.params.logoId!);
    await ctx.tx.remove(ORG_COLLECTIONS.providerLogos, logo.id);
    return detail({});
  },

  async GetProviderLogoOnlyByLogoId(ctx) {
    const logo = await mustGet(ctx.tx, ORG_COLLECTIONS.providerLogos, ctx.params.logoId!);
    return { kind: 'raw', status: 200, body: { data: logo.data, mimeType: logo.mimeType } };
  },

  GetProviderLogoByEmployerId: getProviderLogoByEmployerId,
  GetProviderLogoByEmployerIdAndVersion: getProviderLogoByEmployerId,
};

const providers: ResourceModule = {
  collections: [
    { name: ORG_COLLECTIONS.providers, schema: { api: 'payroll', component: 'ProviderContactInformation' } },
    { name: ORG_COLLECTIONS.providerLogos, schema: { api: 'payroll', component: 'ProviderLogo' }, relations: [{ field: 'providerId', collection: ORG_COLLECTIONS.providers, required: true }] },
  ],
  handlers,
};

export default providers;
