// Classifies every difference between two bundled descriptions (base: the last release, head:
// the candidate) by the contract's change table. Endpoints are matched by path, operations
// by method, parameters by location and name, responses by status, and content by its exact
// media type key, `version=` included: a new version is a new key, never a change to the old.
import { mediaTypeVersion, operationsOf as eachOperation } from '@payroll-api/openapi-bundle';
import { citeChange, isBreakingRule } from './rules.mjs';
import { compareSchemas, deref, newCache } from './schema-diff.mjs';

export const REGISTRY_KEY = 'x-resource-versions';

// Re-exported: part of this package's API (src/index.mjs).
export { mediaTypeVersion };

/** The media type without parameters, lower case. */
export function mediaTypeEssence(mediaType) {
  return String(mediaType).split(';')[0].trim().toLowerCase();
}

function parameterKey(parameter) {
  const name = parameter.in === 'header' ? String(parameter.name).toLowerCase() : parameter.name;
  return `${parameter.in}:${name}`;
}

/** Every operation of a bundle: {key: 'GET /path', method, path, operation, parameters}. */
export function operationsOf(doc) {
  const out = new Map();
  for (const { path, method, pathItem, operation } of eachOperation(doc)) {
    // The operation's own parameters override the path item's of the same location and name.
    const parameters = new Map();
    for (const raw of [...(pathItem.parameters ?? []), ...(operation.parameters ?? [])]) {
      const parameter = deref(doc, raw);
      parameters.set(parameterKey(parameter), parameter);
    }
    const key = `${method.toUpperCase()} ${path}`;
    out.set(key, { key, method: method.toUpperCase(), path, operation, parameters });
  }
  return out;
}

/** operationId -> resource name, from a registry ({resources: {name: {operations}}}). */
export function resourceIndex(registry) {
  const index = new Map();
  for (const [name, resource] of Object.entries(registry?.resources ?? {})) {
    for (const operationId of resource?.operations ?? []) index.set(operationId, name);
  }
  return index;
}

function isSameJson(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Compares two bundles. Returns {findings, deltas}: findings are the classified differences;
 * deltas describe how each new resource version differs from the version before it (for the
 * changelog; they are not enforced, a new version may change anything).
 */
export function diffBundles(baseDoc, headDoc) {
  const findings = [];
  const deltas = [];
  const resources = resourceIndex(headDoc?.[REGISTRY_KEY]);
  for (const [id, name] of resourceIndex(baseDoc?.[REGISTRY_KEY])) if (!resources.has(id)) resources.set(id, name);

  const add = (context, finding) => {
    findings.push({
      severity: isBreakingRule(finding.ruleId) ? 'breaking' : 'non-breaking',
      ...finding,
      rule: citeChange(finding.ruleId),
      operationId: context.operationId ?? null,
      method: context.method ?? null,
      path: context.path ?? null,
      resource: context.operationId ? (resources.get(context.operationId) ?? null) : (context.resource ?? null),
      location: context.location ?? null,
      mediaType: context.mediaType ?? null,
      version: context.mediaType ? mediaTypeVersion(context.mediaType) : (context.version ?? null),
      direction: context.direction ?? null,
    });
  };

  const cache = newCache();
  const headOnly = { base: cache.head, head: cache.head };
  const schemaFindings = (context, base, head, sink, element = undefined) =>
    compareSchemas({
      element,
      cache,
      baseDoc,
      headDoc,
      base,
      head,
      direction: context.direction,
      emit: (f) => sink(context, f),
    });

  const compareContent = (context, baseContent = {}, headContent = {}) => {
    for (const [mediaType, media] of Object.entries(baseContent)) {
      const version = mediaTypeVersion(mediaType);
      const ctx = { ...context, mediaType };
      if (!(mediaType in headContent)) {
        if (version) {
          add(ctx, { ruleId: 'B-OBSOLETE', kind: 'version-removed', pointer: '/', element: mediaType, message: `version ${version} (\`${mediaType}\`) is no longer served` });
        } else {
          add(ctx, { ruleId: 'B-REMOVAL', kind: 'media-type-removed', pointer: '/', element: mediaType, message: `media type \`${mediaType}\` was removed` });
        }
        continue;
      }
      schemaFindings(ctx, media?.schema, headContent[mediaType]?.schema, add);
    }
    for (const [mediaType, media] of Object.entries(headContent)) {
      if (mediaType in baseContent) continue;
      const version = mediaTypeVersion(mediaType);
      const ctx = { ...context, mediaType };
      if (!version) {
        add(ctx, { ruleId: 'NB-FIELD', kind: 'media-type-added', pointer: '/', element: mediaType, message: `new media type \`${mediaType}\`` });
        continue;
      }
      add(ctx, { ruleId: 'NB-VERSION', kind: 'version-added', pointer: '/', element: mediaType, message: `new resource version ${version} (\`${mediaType}\`)` });
      // What the new version changes against the newest older version of the same media type.
      const essence = mediaTypeEssence(mediaType);
      const previous = Object.keys(headContent)
        .filter((key) => mediaTypeEssence(key) === essence && mediaTypeVersion(key) && mediaTypeVersion(key) < version)
        .sort((a, b) => (mediaTypeVersion(a) < mediaTypeVersion(b) ? 1 : -1))[0];
      if (previous) {
        // Both sides of a delta live in the head document.
        const changes = [];
        compareSchemas({
          cache: headOnly,
          baseDoc: headDoc,
          headDoc,
          base: headContent[previous]?.schema,
          head: media?.schema,
          direction: context.direction,
          emit: (f) => changes.push({ ...f, severity: isBreakingRule(f.ruleId) ? 'breaking' : 'non-breaking', rule: citeChange(f.ruleId) }),
        });
        deltas.push({ ...ctxSummary(ctx, resources), version, previousVersion: mediaTypeVersion(previous), changes });
      }
    }
  };

  const baseOps = operationsOf(baseDoc);
  const headOps = operationsOf(headDoc);
  const basePaths = new Set(Object.keys(baseDoc?.paths ?? {}));
  const headPaths = new Set(Object.keys(headDoc?.paths ?? {}));

  for (const [key, b] of baseOps) {
    const context = { operationId: b.operation.operationId ?? key, method: b.method, path: b.path };
    const h = headOps.get(key);
    if (!h) {
      const endpointGone = !headPaths.has(b.path);
      add(context, {
        ruleId: 'B-REMOVAL',
        kind: endpointGone ? 'endpoint-removed' : 'operation-removed',
        pointer: '/',
        element: key,
        message: endpointGone ? `endpoint \`${b.path}\` was removed` : `operation ${key} was removed`,
        servedVersions: servedVersions(b.operation),
      });
      continue;
    }
    if ((b.operation.operationId ?? null) !== (h.operation.operationId ?? null)) {
      add(context, { ruleId: 'B-NAME', kind: 'operation-renamed', pointer: '/', element: 'operationId', message: `operationId changed from \`${b.operation.operationId}\` to \`${h.operation.operationId}\``, before: b.operation.operationId, after: h.operation.operationId });
    }

    // Security: what a token needs (the client sends it: request direction).
    for (const finding of securityFindings(b.operation.security ?? baseDoc?.security, h.operation.security ?? headDoc?.security)) {
      add({ ...context, location: 'security', direction: 'request' }, finding);
    }

    // Parameters (the client writes them: request direction).
    for (const [pkey, bp] of b.parameters) {
      const hp = h.parameters.get(pkey);
      const ctx = { ...context, location: `parameter ${bp.in} ${bp.name}`, direction: 'request' };
      if (!hp) {
        add(ctx, { ruleId: 'B-REMOVAL', kind: 'parameter-removed', pointer: '/', element: bp.name, message: `${bp.in} parameter \`${bp.name}\` was removed` });
        continue;
      }
      if (!bp.required && hp.required) {
        add(ctx, { ruleId: 'B-REQUIRED', kind: 'parameter-now-required', pointer: '/', element: bp.name, message: `${bp.in} parameter \`${bp.name}\` is now required` });
      } else if (bp.required && !hp.required) {
        add(ctx, { ruleId: 'NB-COMPATIBLE', kind: 'parameter-now-optional', pointer: '/', element: bp.name, message: `${bp.in} parameter \`${bp.name}\` is now optional` });
      }
      schemaFindings(ctx, bp.schema, hp.schema, add, bp.name);
    }
    for (const [pkey, hp] of h.parameters) {
      if (b.parameters.has(pkey)) continue;
      const ctx = { ...context, location: `parameter ${hp.in} ${hp.name}`, direction: 'request' };
      if (hp.required) add(ctx, { ruleId: 'B-REQUIRED', kind: 'required-parameter-added', pointer: '/', element: hp.name, message: `new required ${hp.in} parameter \`${hp.name}\`` });
      else add(ctx, { ruleId: 'NB-PARAMETER', kind: 'parameter-added', pointer: '/', element: hp.name, message: `new optional ${hp.in} parameter \`${hp.name}\`` });
    }

    // Request body.
    const bBody = deref(baseDoc, b.operation.requestBody);
    const hBody = deref(headDoc, h.operation.requestBody);
    const bodyCtx = { ...context, location: 'request body', direction: 'request' };
    if (bBody && !hBody) {
      add(bodyCtx, { ruleId: 'B-REMOVAL', kind: 'request-body-removed', pointer: '/', element: 'requestBody', message: 'the request body was removed' });
    } else if (!bBody && hBody) {
      if (hBody.required) add(bodyCtx, { ruleId: 'B-REQUIRED', kind: 'request-body-added', pointer: '/', element: 'requestBody', message: 'a required request body was added' });
      else add(bodyCtx, { ruleId: 'NB-FIELD', kind: 'request-body-added', pointer: '/', element: 'requestBody', message: 'an optional request body was added' });
    } else if (bBody && hBody) {
      if (!bBody.required && hBody.required) {
        add(bodyCtx, { ruleId: 'B-REQUIRED', kind: 'request-body-now-required', pointer: '/', element: 'requestBody', message: 'the request body is now required' });
      }
      compareContent(bodyCtx, bBody.content, hBody.content);
    }

    // Responses (the client reads them).
    const bResponses = b.operation.responses ?? {};
    const hResponses = h.operation.responses ?? {};
    for (const [status, rawResponse] of Object.entries(bResponses)) {
      const ctx = { ...context, location: `response ${status}`, direction: 'response' };
      if (!(status in hResponses)) {
        add(ctx, { ruleId: 'B-REMOVAL', kind: 'response-removed', pointer: '/', element: status, message: `response ${status} was removed` });
        continue;
      }
      const br = deref(baseDoc, rawResponse) ?? {};
      const hr = deref(headDoc, hResponses[status]) ?? {};
      for (const [name, rawHeader] of Object.entries(br.headers ?? {})) {
        const hctx = { ...ctx, location: `response ${status} header ${name}` };
        const hh = Object.entries(hr.headers ?? {}).find(([other]) => other.toLowerCase() === name.toLowerCase());
        if (!hh) {
          add(hctx, { ruleId: 'B-REMOVAL', kind: 'header-removed', pointer: '/', element: name, message: `response header \`${name}\` was removed` });
          continue;
        }
        schemaFindings(hctx, deref(baseDoc, rawHeader)?.schema, deref(headDoc, hh[1])?.schema, add, name);
      }
      for (const name of Object.keys(hr.headers ?? {})) {
        if (Object.keys(br.headers ?? {}).some((other) => other.toLowerCase() === name.toLowerCase())) continue;
        add({ ...ctx, location: `response ${status} header ${name}` }, { ruleId: 'NB-FIELD', kind: 'header-added', pointer: '/', element: name, message: `new response header \`${name}\`` });
      }
      compareContent(ctx, br.content, hr.content);
    }
    for (const status of Object.keys(hResponses)) {
      if (status in bResponses) continue;
      add({ ...context, location: `response ${status}`, direction: 'response' }, { ruleId: 'NB-FIELD', kind: 'response-added', pointer: '/', element: status, message: `new response ${status}` });
    }
  }
  for (const [key, h] of headOps) {
    if (baseOps.has(key)) continue;
    const context = { operationId: h.operation.operationId ?? key, method: h.method, path: h.path };
    const newEndpoint = !basePaths.has(h.path);
    add(context, {
      ruleId: newEndpoint ? 'NB-ENDPOINT' : 'NB-OPERATION',
      kind: newEndpoint ? 'endpoint-added' : 'operation-added',
      pointer: '/',
      element: key,
      message: newEndpoint ? `new endpoint \`${h.path}\` (${key})` : `new operation ${key}`,
    });
  }

  findings.push(...diffRegistries(baseDoc?.[REGISTRY_KEY], headDoc?.[REGISTRY_KEY]).map((f) => ({
    severity: isBreakingRule(f.ruleId) ? 'breaking' : 'non-breaking',
    ...f,
    rule: citeChange(f.ruleId),
    operationId: null,
    method: null,
    path: null,
    location: `${REGISTRY_KEY}/resources/${f.resource}`,
    mediaType: null,
    direction: null,
  })));

  return { findings, deltas, identical: isSameJson(baseDoc, headDoc) };
}

/** [{scheme: Set(scopes)}]: the alternatives, any one of which lets a request through. */
function requirements(security) {
  if (!Array.isArray(security)) return [];
  return security.map((requirement) => new Map(Object.entries(requirement ?? {}).map(([scheme, scopes]) => [scheme, new Set(scopes ?? [])])));
}

/** A token that satisfies `held` also satisfies `needed`. */
function satisfies(held, needed) {
  return [...needed].every(([scheme, scopes]) => held.has(scheme) && [...scopes].every((scope) => held.get(scheme).has(scope)));
}

function missingFrom(held, needed) {
  const missing = [];
  for (const [scheme, scopes] of needed) {
    if (!held.has(scheme)) missing.push(scopes.size > 0 ? `the ${scheme} scope${scopes.size === 1 ? '' : 's'} ${[...scopes].map((s) => `\`${s}\``).join(', ')}` : `authentication with ${scheme}`);
    else for (const scope of scopes) if (!held.get(scheme).has(scope)) missing.push(`the ${scheme} scope \`${scope}\``);
  }
  return missing;
}

/**
 * Differences of an operation's security requirements (the operation's own, else the
 * document's). A request that passed before and is refused now, for want of a scope or a
 * scheme, is breaking; no requirement at all lets every request through.
 */
export function securityFindings(baseSecurity, headSecurity) {
  const before = requirements(baseSecurity);
  const after = requirements(headSecurity);
  const open = (list) => list.length === 0 || list.some((requirement) => requirement.size === 0);
  if (open(after)) {
    return open(before) ? [] : [{ ruleId: 'NB-COMPATIBLE', kind: 'security-relaxed', pointer: '/', element: 'security', message: 'no longer requires authentication' }];
  }
  const findings = [];
  for (const held of before.length === 0 ? [new Map()] : before) {
    if (after.some((needed) => satisfies(held, needed))) continue;
    const closest = after.map((needed) => missingFrom(held, needed)).sort((a, b) => a.length - b.length)[0];
    findings.push({
      ruleId: 'B-REQUIRED',
      kind: 'security-required',
      pointer: '/',
      element: 'security',
      message: `now requires ${closest.join(' and ')}: a token without ${closest.length === 1 ? 'it' : 'them'} is refused`,
    });
  }
  if (findings.length === 0 && !after.every((needed) => before.some((held) => satisfies(needed, held)))) {
    findings.push({ ruleId: 'NB-COMPATIBLE', kind: 'security-relaxed', pointer: '/', element: 'security', message: 'accepts tokens it refused before' });
  }
  return findings;
}

function ctxSummary(ctx, resources) {
  return {
    operationId: ctx.operationId,
    method: ctx.method,
    path: ctx.path,
    resource: resources.get(ctx.operationId) ?? null,
    location: ctx.location,
    mediaType: ctx.mediaType,
    direction: ctx.direction,
  };
}

/** The versions an operation serves, read from its versioned media type keys. */
export function servedVersions(operation) {
  const versions = new Set();
  const collect = (content) => {
    for (const key of Object.keys(content ?? {})) {
      const version = mediaTypeVersion(key);
      if (version) versions.add(version);
    }
  };
  collect(operation?.requestBody?.content);
  for (const response of Object.values(operation?.responses ?? {})) collect(response?.content);
  return [...versions].sort().reverse();
}

/** Differences between two version registries (x-resource-versions). */
export function diffRegistries(base, head) {
  const findings = [];
  const bRes = base?.resources ?? {};
  const hRes = head?.resources ?? {};
  for (const [name, resource] of Object.entries(hRes)) {
    const before = new Map((bRes[name]?.versions ?? []).map((v) => [v.version, v]));
    for (const entry of resource?.versions ?? []) {
      const old = before.get(entry.version);
      if (!old) {
        findings.push({ ruleId: 'NB-VERSION', kind: 'registry-version-added', resource: name, version: entry.version, pointer: '/', element: `${name} ${entry.version}`, message: `resource \`${name}\` gains version ${entry.version}` });
        continue;
      }
      const was = old.obsoleteDate ?? null;
      const now = entry.obsoleteDate ?? null;
      if (was === now) continue;
      if (was === null) {
        findings.push({ ruleId: 'NB-DEPRECATION', kind: 'obsolete-date-set', resource: name, version: entry.version, pointer: '/', element: `${name} ${entry.version}`, message: `\`${name}\` ${entry.version} is obsolete from ${now}`, before: was, after: now });
      } else if (now === null || now > was) {
        findings.push({ ruleId: 'NB-DEPRECATION', kind: 'obsolete-date-extended', resource: name, version: entry.version, pointer: '/', element: `${name} ${entry.version}`, message: `\`${name}\` ${entry.version} is served longer: obsoleteDate ${was} became ${now ?? 'none'}`, before: was, after: now });
      } else {
        findings.push({ ruleId: 'B-OBSOLETE', kind: 'obsolete-date-earlier', resource: name, version: entry.version, pointer: '/', element: `${name} ${entry.version}`, message: `\`${name}\` ${entry.version} obsoleteDate moved earlier, from ${was} to ${now}`, before: was, after: now });
      }
    }
  }
  for (const [name, resource] of Object.entries(bRes)) {
    const after = new Set((hRes[name]?.versions ?? []).map((v) => v.version));
    for (const entry of resource?.versions ?? []) {
      if (after.has(entry.version)) continue;
      findings.push({ ruleId: 'B-OBSOLETE', kind: 'registry-version-removed', resource: name, version: entry.version, obsoleteDate: entry.obsoleteDate ?? null, pointer: '/', element: `${name} ${entry.version}`, message: `resource \`${name}\` no longer serves version ${entry.version}` });
    }
  }
  return findings;
}
