// Byte helpers that run in every runtime (no Buffer): UTF-8, base64, CRC-32 and Adler-32, and
// the zlib and zip containers with stored (uncompressed) blocks that seed images and xlsx
// exports need.
import { Slices } from './slices.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const strict = new TextDecoder('utf-8', { fatal: true });

export const utf8 = (text: string): Uint8Array => encoder.encode(text);
export const fromUtf8 = (bytes: Uint8Array): string => decoder.decode(bytes);

/** The text of UTF-8 bytes, or undefined when they are not valid UTF-8. */
export function strictUtf8(bytes: Uint8Array): string | undefined {
  try {
    return strict.decode(bytes);
  } catch {
    return undefined;
  }
}

/** Bytes decoded at a time by strictUtf8InSlices. */
const DECODED_AT_ONCE = 1024 * 1024;

/** strictUtf8 for a large body: decoded a megabyte at a time, pausing between them (see Slices). */
export async function strictUtf8InSlices(bytes: Uint8Array): Promise<string | undefined> {
  if (bytes.length <= DECODED_AT_ONCE) return strictUtf8(bytes);
  const streaming = new TextDecoder('utf-8', { fatal: true });
  const slices = new Slices();
  const pieces: string[] = [];
  try {
    for (let at = 0; at < bytes.length; at += DECODED_AT_ONCE) {
      pieces.push(streaming.decode(bytes.subarray(at, at + DECODED_AT_ONCE), { stream: true }));
      await slices.due();
    }
    pieces.push(streaming.decode());
  } catch {
    return undefined;
  }
  return pieces.join('');
}

export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

let crcTable: Uint32Array | undefined;
export function crc32(bytes: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const byte of bytes) crc = crcTable[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function adler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  // The sums stay exact for 5,552 bytes between reductions (zlib's NMAX).
  for (let i = 0; i < bytes.length; ) {
    const end = Math.min(i + 5552, bytes.length);
    for (; i < end; i++) {
      a += bytes[i]!;
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return ((b << 16) | a) >>> 0;
}

/** A zlib stream (RFC 1950) of stored deflate blocks: valid everywhere zlib is read, no compressor needed. */
export function zlibStored(data: Uint8Array): Uint8Array {
  const blocks: Uint8Array[] = [Uint8Array.of(0x78, 0x01)];
  for (let at = 0; at < data.length || at === 0; at += 0xffff) {
    const chunk = data.subarray(at, Math.min(at + 0xffff, data.length));
    const last = at + 0xffff >= data.length ? 1 : 0;
    const header = new Uint8Array(5);
    header[0] = last;
    new DataView(header.buffer).setUint16(1, chunk.length, true);
    new DataView(header.buffer).setUint16(3, ~chunk.length & 0xffff, true);
    blocks.push(header, chunk);
    if (data.length === 0) break;
  }
  const tail = new Uint8Array(4);
  new DataView(tail.buffer).setUint32(0, adler32(data), false);
  blocks.push(tail);
  return concat(blocks);
}

/** A zip archive (stored entries) of the given files, in order. */
export function zipStored(files: Array<{ name: string; data: Uint8Array }>): Uint8Array {
  const local: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const file of files) {
    const name = utf8(file.name);
    const crc = crc32(file.data);
    const head = new Uint8Array(30 + name.length);
    const h = new DataView(head.buffer);
    h.setUint32(0, 0x04034b50, true);
    h.setUint16(4, 20, true);
    h.setUint16(6, 0x0800, true); // names are UTF-8
    h.setUint16(8, 0, true); // stored
    h.setUint16(12, 0x21, true); // 1980-01-01: fixed, so exports are byte-for-byte repeatable
    h.setUint32(14, crc, true);
    h.setUint32(18, file.data.length, true);
    h.setUint32(22, file.data.length, true);
    h.setUint16(26, name.length, true);
    head.set(name, 30);
    local.push(head, file.data);
    const entry = new Uint8Array(46 + name.length);
    const c = new DataView(entry.buffer);
    c.setUint32(0, 0x02014b50, true);
    c.setUint16(4, 20, true);
    c.setUint16(6, 20, true);
    c.setUint16(8, 0x0800, true);
    c.setUint16(14, 0x21, true);
    c.setUint32(16, crc, true);
    c.setUint32(20, file.data.length, true);
    c.setUint32(24, file.data.length, true);
    c.setUint16(28, name.length, true);
    c.setUint32(42, offset, true);
    entry.set(name, 46);
    central.push(entry);
    offset += head.length + file.data.length;
  }
  const directory = concat(central);
  const end = new Uint8Array(22);
  const e = new DataView(end.buffer);
  e.setUint32(0, 0x06054b50, true);
  e.setUint16(8, files.length, true);
  e.setUint16(10, files.length, true);
  e.setUint32(12, directory.length, true);
  e.setUint32(16, offset, true);
  return concat([...local, directory, end]);
}
