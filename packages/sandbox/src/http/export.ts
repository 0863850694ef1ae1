// Custom export (contract 4.1): a list answered as a CSV or XLSX file built from the list's
// items and the X-ReportInput settings: columns (dotted field paths), their names, date
// formats, the delimiter and the decimal separator.
import { utf8, zipStored } from '../util/bytes.js';
import { message, type Message } from './errors.js';

export interface ReportField {
  fieldName: string;
  reportColumnName: string;
  format: string | undefined;
}

export interface ReportInput {
  fileNameWithoutExtension: string | undefined;
  delimiter: string;
  decimalSeparator: string;
  /** Empty: every scalar field of the items becomes a column. */
  fields: ReportField[];
}

export type ParsedReportInput = { ok: true; input: ReportInput } | { ok: false; messages: Message[] };

const HEADER = 'X-ReportInput';

/** Header values arrive as latin1; a UTF-8 JSON text (e.g. column names with accents) is decoded back. */
function decodeHeader(raw: string): string {
  if (!/[\u0080-\u00ff]/.test(raw)) return raw;
  const utf8 = new TextDecoder().decode(Uint8Array.from(raw, (c) => c.charCodeAt(0)));
  return utf8.includes('\ufffd') ? raw : utf8;
}

export function parseReportInput(raw: string | undefined): ParsedReportInput {
  const defaults: ReportInput = { fileNameWithoutExtension: undefined, delimiter: ',', decimalSeparator: '.', fields: [] };
  if (raw === undefined || raw.trim() === '') return { ok: true, input: defaults };
  let value: unknown;
  try {
    value = JSON.parse(decodeHeader(raw));
  } catch (error) {
    return { ok: false, messages: [message(400, `The header ${HEADER} is not valid JSON: ${(error as Error).message}.`, [HEADER])] };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, messages: [message(400, `The header ${HEADER} must be a JSON object.`, [HEADER])] };
  }
  const input = value as Record<string, unknown>;
  const messages: Message[] = [];
  const text = (name: string, check: (s: string) => string | null): string | undefined => {
    const v = input[name];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string') {
      messages.push(message(400, `The field ${name} of ${HEADER} must be a string.`, [`${HEADER}.${name}`]));
      return undefined;
    }
    const problem = check(v);
    if (problem) {
      messages.push(message(400, `The field ${name} of ${HEADER} ${problem}.`, [`${HEADER}.${name}`]));
      return undefined;
    }
    return v;
  };
  const oneChar = (s: string): string | null =>
    [...s].length !== 1 ? 'must be exactly one character' : /["\r\n]/.test(s) ? 'may not be a quote or a line break' : null;
  const fileName = text('fileNameWithoutExtension', (s) => (s.length > 200 ? 'may not be longer than 200 characters' : null));
  const delimiter = text('delimiter', oneChar);
  // The contract's sample spells it `decimalSepartor`; both spellings are understood.
  const decimal = text('decimalSeparator', oneChar) ?? text('decimalSepartor', oneChar);
  const fields: ReportField[] = [];
  if (input.fields !== undefined && input.fields !== null) {
    if (!Array.isArray(input.fields)) {
      messages.push(message(400, `The field fields of ${HEADER} must be an array.`, [`${HEADER}.fields`]));
    } else {
      input.fields.slice(0, 1000).forEach((f: unknown, i) => {
        const at = `${HEADER}.fields[${i}]`;
        const field = f as Record<string, unknown> | null;
        if (typeof field !== 'object' || field === null || Array.isArray(field)) {
          messages.push(message(400, `The item ${at} must be an object.`, [at]));
          return;
        }
        if (typeof field.fieldName !== 'string' || !/^[\w$]+(\.[\w$]+)*$/.test(field.fieldName)) {
          messages.push(message(400, `The field ${at}.fieldName must be a dotted field path, e.g. personalDetails.lastName.`, [`${at}.fieldName`]));
          return;
        }
        for (const key of ['reportColumnName', 'format'] as const) {
          if (field[key] !== undefined && field[key] !== null && typeof field[key] !== 'string') {
            messages.push(message(400, `The field ${at}.${key} must be a string.`, [`${at}.${key}`]));
          }
        }
        fields.push({
          fieldName: field.fieldName,
          reportColumnName: typeof field.reportColumnName === 'string' ? field.reportColumnName : field.fieldName,
          format: typeof field.format === 'string' && field.format !== '' ? field.format : undefined,
        });
      });
    }
  }
  if (messages.length > 0) return { ok: false, messages };
  return {
    ok: true,
    input: {
      fileNameWithoutExtension: fileName,
      delimiter: delimiter ?? defaults.delimiter,
      decimalSeparator: decimal ?? defaults.decimalSeparator,
      fields,
    },
  };
}

/** The items of a list body: the envelope's `_embedded`, or the body itself when it is an array. */
export function listItems(body: unknown): Record<string, unknown>[] {
  const items = Array.isArray(body)
    ? body
    : body && typeof body === 'object'
      ? (body as Record<string, unknown>)._embedded
      : undefined;
  if (Array.isArray(items)) return items.filter((i): i is Record<string, unknown> => typeof i === 'object' && i !== null);
  return [];
}

function isScalar(value: unknown): boolean {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

/** Every scalar leaf of the items as a dotted path, in order of first appearance. */
function defaultFields(items: Record<string, unknown>[]): ReportField[] {
  const paths: string[] = [];
  const seen = new Set<string>();
  const walk = (value: unknown, prefix: string, depth: number): void => {
    if (isScalar(value) || Array.isArray(value) || depth > 6) {
      if (!seen.has(prefix)) {
        seen.add(prefix);
        paths.push(prefix);
      }
      return;
    }
    for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
      walk(child, prefix ? `${prefix}.${key}` : key, depth + 1);
    }
  };
  for (const item of items) walk(item, '', 0);
  return paths.filter(Boolean).map((p) => ({ fieldName: p, reportColumnName: p, format: undefined }));
}

/** The value at a dotted path; a metadata object {key, value} stands for its value. */
function pick(item: Record<string, unknown>, path: string): unknown {
  let value: unknown = item;
  for (const segment of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  if (value && typeof value === 'object' && !Array.isArray(value) && 'value' in value) {
    return (value as Record<string, unknown>).value;
  }
  return value;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?/;

/**
 * Formats an ISO date with a .NET-style pattern (yyyy, yy, MM, M, dd, d, HH, H, mm, ss).
 * Excel-style patterns write the month lowercase (dd-mm-yyyy): without an hour token and
 * without an uppercase M, `mm` is read as the month.
 */
export function formatDate(iso: string, format: string): string | null {
  const m = DATE.exec(iso);
  if (!m) return null;
  const [, y, mo, d, h = '00', mi = '00', s = '00'] = m as unknown as string[];
  const monthIsLower = !/M/.test(format) && !/[Hh]/.test(format);
  const tokens: Record<string, string> = {
    yyyy: y as string,
    yy: (y as string).slice(2),
    MM: mo as string,
    M: String(Number(mo)),
    dd: d as string,
    d: String(Number(d)),
    HH: h,
    H: String(Number(h)),
    mm: monthIsLower ? (mo as string) : mi,
    ss: s,
  };
  return format.replace(/yyyy|yy|MM|M|dd|d|HH|H|mm|ss/g, (t) => tokens[t] ?? t);
}

function cellText(value: unknown, field: ReportField, decimalSeparator: string): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'number') return String(value).replace('.', decimalSeparator);
  if (typeof value === 'string') return field.format ? (formatDate(value, field.format) ?? value) : value;
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every(isScalar)) return value.join(', ');
  return JSON.stringify(value);
}

function csvQuote(text: string, delimiter: string): string {
  return text.includes(delimiter) || /["\r\n]/.test(text) || /^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function buildCsv(items: Record<string, unknown>[], input: ReportInput): string {
  const fields = input.fields.length > 0 ? input.fields : defaultFields(items);
  const lines = [fields.map((f) => csvQuote(f.reportColumnName, input.delimiter)).join(input.delimiter)];
  for (const item of items) {
    lines.push(
      fields
        .map((f) => csvQuote(cellText(pick(item, f.fieldName), f, input.decimalSeparator), input.delimiter))
        .join(input.delimiter),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}

const xml = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

/** A1-style column letters of a 0-based column index. */
function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/**
 * An Office Open XML workbook of one sheet: a bold header row, then one row per item. Dates
 * with a format are date cells in that number format; numbers and booleans keep their type.
 */
export async function buildXlsx(items: Record<string, unknown>[], input: ReportInput, sheetName: string): Promise<Uint8Array> {
  const fields = input.fields.length > 0 ? input.fields : defaultFields(items);
  const name = sheetName.replace(/[\\/?*[\]:]/g, ' ').slice(0, 31).trim() || 'Export';
  // Style 0 is the default, 1 the bold header; each distinct date format gets the next.
  const formats = [...new Set(fields.map((f) => f.format).filter((f): f is string => f !== undefined))];
  const styleOf = (format: string) => 2 + formats.indexOf(format);
  const cell = (ref: string, value: unknown, field: ReportField, style = 0): string => {
    const s = style ? ` s="${style}"` : '';
    const date = typeof value === 'string' ? DATE.exec(value) : null;
    if (field.format && date) {
      const [, y, mo, d, h = '0', mi = '0', sec = '0'] = date;
      const serial = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(sec)) / 86_400_000 + 25_569;
      return `<c r="${ref}" s="${styleOf(field.format)}"><v>${serial}</v></c>`;
    }
    if (typeof value === 'number' && Number.isFinite(value)) return `<c r="${ref}"${s}><v>${value}</v></c>`;
    if (typeof value === 'boolean') return `<c r="${ref}"${s} t="b"><v>${value ? 1 : 0}</v></c>`;
    return `<c r="${ref}"${s} t="inlineStr"><is><t xml:space="preserve">${xml(cellText(value, field, input.decimalSeparator))}</t></is></c>`;
  };
  const rows = [`<row r="1">${fields.map((f, i) => cell(`${columnName(i)}1`, f.reportColumnName, { ...f, format: undefined }, 1)).join('')}</row>`];
  items.forEach((item, r) => rows.push(`<row r="${r + 2}">${fields.map((f, i) => cell(`${columnName(i)}${r + 2}`, pick(item, f.fieldName), f)).join('')}</row>`));
  const widths = fields.map((f, i) => `<col min="${i + 1}" max="${i + 1}" width="${Math.min(60, Math.max(12, f.reportColumnName.length + 2))}" customWidth="1"/>`).join('');
  const head = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
  const main = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  const rel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  const files: Record<string, string> = {
    '[Content_Types].xml': `${head}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`,
    '_rels/.rels': `${head}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    'xl/workbook.xml': `${head}<workbook xmlns="${main}" xmlns:r="${rel}"><sheets><sheet name="${xml(name)}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    'xl/_rels/workbook.xml.rels': `${head}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${rel}/styles" Target="styles.xml"/></Relationships>`,
    'xl/styles.xml': `${head}<styleSheet xmlns="${main}">${formats.length ? `<numFmts count="${formats.length}">${formats.map((f, i) => `<numFmt numFmtId="${164 + i}" formatCode="${xml(f)}"/>`).join('')}</numFmts>` : ''}<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="${2 + formats.length}"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>${formats.map((_, i) => `<xf numFmtId="${164 + i}" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>`).join('')}</cellXfs></styleSheet>`,
    'xl/worksheets/sheet1.xml': `${head}<worksheet xmlns="${main}" xmlns:r="${rel}">${widths ? `<cols>${widths}</cols>` : ''}<sheetData>${rows.join('')}</sheetData></worksheet>`,
  };
  return zipStored(Object.entries(files).map(([path, text]) => ({ name: path, data: utf8(text) })));
}

/** `attachment; filename="…"` with an RFC 5987 UTF-8 form for names outside ASCII. */
export function contentDisposition(baseName: string, extension: string): string {
  const clean = baseName.replace(/[\u0000-\u001f\u007f"\\/:*?<>|]+/g, '_').trim().slice(0, 200) || 'export';
  const file = `${clean}.${extension}`;
  const ascii = file.replace(/[^\x20-\x7e]/g, '_');
  return ascii === file
    ? `attachment; filename="${file}"`
    : `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file)}`;
}
