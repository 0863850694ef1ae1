// The Prefer header Prism understands (`code=…, example=…, dynamic=…, seed=…`), or the
// query parameters __code, __example, __dynamic and __seed for clients that cannot set it.
export interface Preferences {
  code?: number;
  example?: string;
  dynamic?: boolean;
  seed?: string;
}

export type ParsedPreferences = { ok: true; prefer: Preferences } | { ok: false; description: string };

export const PREFER_QUERY = ['__code', '__example', '__dynamic', '__seed'];

function unquote(value: string): string {
  const v = value.trim();
  return v.length >= 2 && v.startsWith('"') && v.endsWith('"') ? v.slice(1, -1) : v;
}

export function parsePreferences(header: string | undefined, query: URLSearchParams): ParsedPreferences {
  const raw: Record<string, string> = {};
  if (header !== undefined && header.trim() !== '') {
    for (const token of header.split(/[,;]/).slice(0, 64)) {
      const eq = token.indexOf('=');
      if (eq < 0) continue;
      raw[token.slice(0, eq).trim().toLowerCase()] = unquote(token.slice(eq + 1));
    }
  } else {
    for (const name of PREFER_QUERY) {
      const value = query.get(name);
      if (value !== null) raw[name.slice(2)] = value;
    }
  }
  const prefer: Preferences = {};
  if (raw.code !== undefined) {
    if (!/^[1-5]\d\d$/.test(raw.code)) return { ok: false, description: `Prefer code must be an HTTP status code (three digits), not '${raw.code}'.` };
    prefer.code = Number(raw.code);
  }
  if (raw.dynamic !== undefined) {
    if (raw.dynamic !== 'true' && raw.dynamic !== 'false') return { ok: false, description: `Prefer dynamic must be true or false, not '${raw.dynamic}'.` };
    prefer.dynamic = raw.dynamic === 'true';
  }
  if (raw.example !== undefined && raw.example !== '') prefer.example = raw.example;
  if (raw.seed !== undefined && raw.seed !== '') prefer.seed = raw.seed;
  return { ok: true, prefer };
}
