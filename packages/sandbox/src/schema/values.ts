// Comparing and measuring values as JSON Schema (and ajv) does.

/** Deep equality of JSON values (same constructor, same keys, equal members); NaN equals NaN. */
export function equal(a: any, b: any): boolean {
  if (a === b) return true;
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    if (a.constructor !== b.constructor) return false;
    if (Array.isArray(a)) {
      if (a.length !== b.length) return false;
      for (let i = a.length; i-- !== 0; ) if (!equal(a[i], b[i])) return false;
      return true;
    }
    if (a.constructor === RegExp) return a.source === b.source && a.flags === b.flags;
    if (a.valueOf !== Object.prototype.valueOf) return a.valueOf() === b.valueOf();
    if (a.toString !== Object.prototype.toString) return a.toString() === b.toString();
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    for (let i = keys.length; i-- !== 0; ) if (!Object.prototype.hasOwnProperty.call(b, keys[i]!)) return false;
    for (let i = keys.length; i-- !== 0; ) if (!equal(a[keys[i]!], b[keys[i]!])) return false;
    return true;
  }
  return a !== a && b !== b;
}

/** The length of a string in code points (a surrogate pair is one character), as minLength/maxLength count. */
export function codePoints(text: string): number {
  let length = 0;
  for (let at = 0; at < text.length; ) {
    length++;
    const unit = text.charCodeAt(at++);
    if (unit >= 0xd800 && unit <= 0xdbff && at < text.length && (text.charCodeAt(at) & 0xfc00) === 0xdc00) at++;
  }
  return length;
}
