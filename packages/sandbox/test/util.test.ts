// The runtime-neutral helpers against Node's own implementations.
import { createHash } from 'node:crypto';
import { deflateSync, gzipSync, inflateSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { crc32, fromBase64, toBase64, zlibStored, zipStored } from '../src/util/bytes.js';
import { randomId, sequentialId, sha1Hex } from '../src/util/ids.js';
import { dayOf, daysInMonth, httpDate } from '../src/util/dates.js';

describe('ids', () => {
  it('computes SHA-1 as node:crypto does, across block boundaries and in UTF-8', () => {
    for (const text of ['', 'abc', 'payroll-sandbox:employer', 'x'.repeat(55), 'y'.repeat(56), 'z'.repeat(64), 'é€😀'.repeat(40)]) {
      expect(sha1Hex(text)).toBe(createHash('sha1').update(text).digest('hex'));
    }
  });
  it('makes v4-shaped uuids, random or by sequence', () => {
    const shape = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(randomId()).toMatch(shape);
    expect(randomId()).not.toBe(randomId());
    expect(sequentialId('token-a', 1)).toMatch(shape);
    expect(sequentialId('token-a', 1)).toBe(sequentialId('token-a', 1));
    expect(sequentialId('token-a', 1)).not.toBe(sequentialId('token-a', 2));
    expect(sequentialId('token-a', 1)).not.toBe(sequentialId('token-b', 1));
  });
  it('makes random uuids where randomUUID is missing too (a page served over plain http)', () => {
    const shape = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    const getRandomValues = vi.spyOn(crypto, 'getRandomValues');
    vi.stubGlobal('crypto', { getRandomValues: crypto.getRandomValues.bind(crypto) });
    try {
      expect(randomId()).toMatch(shape);
      expect(randomId()).not.toBe(randomId());
      expect(getRandomValues).toHaveBeenCalled();
    } finally {
      vi.unstubAllGlobals();
      getRandomValues.mockRestore();
    }
  });
});

describe('bytes', () => {
  const data = Uint8Array.from({ length: 200_000 }, (_, i) => (i * 7) % 251);
  it('writes zlib streams that zlib reads back, also past one stored block', () => {
    expect(Buffer.from(inflateSync(zlibStored(data)))).toEqual(Buffer.from(data));
    expect(inflateSync(zlibStored(new Uint8Array(0))).length).toBe(0);
  });
  it('computes CRC-32 and base64 as Node does', () => {
    // zlib's own CRC-32 sits in a gzip trailer.
    const gz = gzipSync(data);
    expect(crc32(data)).toBe(gz.readUInt32LE(gz.length - 8));
    expect(toBase64(data)).toBe(Buffer.from(data).toString('base64'));
    expect(Buffer.from(fromBase64(Buffer.from(data).toString('base64')))).toEqual(Buffer.from(data));
  });
  it('writes a zip whose entries carry the right CRC and bytes', () => {
    const zip = zipStored([{ name: 'a.txt', data: new TextEncoder().encode('hello') }, { name: 'dir/b.bin', data }]);
    const view = new DataView(zip.buffer, zip.byteOffset);
    expect(view.getUint32(0, true)).toBe(0x04034b50);
    expect(view.getUint32(14, true)).toBe(crc32(new TextEncoder().encode('hello')));
    expect(view.getUint32(zip.length - 22, true)).toBe(0x06054b50);
    expect(view.getUint16(zip.length - 22 + 10, true)).toBe(2);
    // A deflate of the same bytes is smaller: the archive really stores them as they are.
    expect(zip.length).toBeGreaterThan(deflateSync(data).length);
  });
});

describe('dates', () => {
  it('counts the days of every month of the proleptic Gregorian calendar as Date does', () => {
    const byDate = (year: number, month: number) => {
      const last = new Date(0);
      last.setUTCFullYear(year, month, 0);
      return last.getUTCDate();
    };
    for (let year = 0; year <= 2400; year++) for (let month = 1; month <= 12; month++) expect(daysInMonth(year, month), `${year}-${month}`).toBe(byDate(year, month));
    expect([daysInMonth(0, 2), daysInMonth(1900, 2), daysInMonth(2000, 2), daysInMonth(2028, 2)]).toEqual([29, 28, 29, 29]);
  });

  it('gives the day and the HTTP date Date gives, at and around every boundary, in any order', () => {
    const day = 86_400_000;
    const instants = [0, 1, 999, 1000, day - 1, day, day + 1, Date.UTC(2026, 10, 28, 23, 59, 59, 999), Date.UTC(2026, 10, 29), -1, -day, -day - 1, 8.64e15, -8.64e15, Date.now()];
    // Back and forth, so that a kept text is given again only while the instant stays in its day or second.
    for (const ms of [...instants, ...instants.reverse(), ...instants.map((ms) => ms + 500)]) {
      if (Math.abs(ms) > 8.64e15) continue;
      expect(dayOf(ms)).toBe(new Date(ms).toISOString().slice(0, 10));
      expect(httpDate(ms)).toBe(new Date(ms).toUTCString());
    }
  });
  it('throws as Date does for an instant out of its range, after one in range too', () => {
    dayOf(0);
    expect(() => dayOf(8.64e15 + 1)).toThrow(RangeError);
    expect(() => dayOf(Number.NaN)).toThrow(RangeError);
    httpDate(0);
    expect(httpDate(Number.NaN)).toBe(new Date(Number.NaN).toUTCString());
  });
});
