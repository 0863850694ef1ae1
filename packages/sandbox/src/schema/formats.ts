// The formats a schema's `format` checks, as ajv-formats' "full" mode defines them. A format
// applies to strings or to numbers only; `password` and `binary` only describe; a format not
// named here is not checked (as ajv does without strict mode).

import { daysInMonth } from '../util/dates.js';

type Test = (value: any) => boolean;
export interface Format {
  /** The type of value the format applies to. */
  type: 'string' | 'number';
  test: Test;
}

const matches = (pattern: RegExp): Test => (value) => pattern.test(value);

const DATE = /^(\d\d\d\d)-(\d\d)-(\d\d)$/;

function date(text: string): boolean {
  const parts = DATE.exec(text);
  if (!parts) return false;
  const year = +parts[1]!;
  const month = +parts[2]!;
  const day = +parts[3]!;
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

const TIME = /^(\d\d):(\d\d):(\d\d(?:\.\d+)?)(z|([+-])(\d\d)(?::?(\d\d))?)?$/i;

/** A time of day; `zoned`: the time zone is required. A leap second is allowed at 23:59 UTC. */
function time(zoned: boolean): Test {
  return (text: string) => {
    const parts = TIME.exec(text);
    if (!parts) return false;
    const hour = +parts[1]!;
    const minute = +parts[2]!;
    const second = +parts[3]!;
    const sign = parts[5] === '-' ? -1 : 1;
    const zoneHours = +(parts[6] || 0);
    const zoneMinutes = +(parts[7] || 0);
    if (zoneHours > 23 || zoneMinutes > 59 || (zoned && !parts[4])) return false;
    if (hour <= 23 && minute <= 59 && second < 60) return true;
    const utcMinute = minute - zoneMinutes * sign;
    const utcHour = hour - zoneHours * sign - (utcMinute < 0 ? 1 : 0);
    return (utcHour === 23 || utcHour === -1) && (utcMinute === 59 || utcMinute === -1) && second < 61;
  };
}

const DATE_TIME_SEPARATOR = /t|\s/i;
function dateTime(zoned: boolean): Test {
  const timeOfDay = time(zoned);
  return (text: string) => {
    const parts = text.split(DATE_TIME_SEPARATOR);
    return parts.length === 2 && date(parts[0]!) && timeOfDay(parts[1]!);
  };
}

// The IPv6 literal and the parts of a URI (RFC 3986), shared by uri and uri-reference.
const H16 = '[0-9a-f]{1,4}';
const OCTET = '(?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?)';
const IPV4_IN_URI = `(?:${OCTET}\\.){3}${OCTET}`;
const IPV6_IN_URI = `(?:(?:(?:(?:${H16}:){6}|::(?:${H16}:){5}|(?:${H16})?::(?:${H16}:){4}|(?:(?:${H16}:){0,1}${H16})?::(?:${H16}:){3}|(?:(?:${H16}:){0,2}${H16})?::(?:${H16}:){2}|(?:(?:${H16}:){0,3}${H16})?::${H16}:|(?:(?:${H16}:){0,4}${H16})?::)(?:${H16}:${H16}|${IPV4_IN_URI})|(?:(?:${H16}:){0,5}${H16})?::${H16}|(?:(?:${H16}:){0,6}${H16})?::)|[Vv][0-9a-f]+\\.[a-z0-9\\-._~!$&'()*+,;=:]+)`;
const PCT = '%[0-9a-f]{2}';
/** The authority and path of a URI; `quote`: uri-reference also lets `"` through, as ajv-formats does. */
const hierarchy = (quote: string) => {
  const sub = `[a-z0-9\\-._~!$&'${quote}()*+,;=`;
  const pchar = `(?:${sub}:@]|${PCT})`;
  return `(?:\\/?\\/(?:(?:[a-z0-9\\-._~!$&'()*+,;=:]|${PCT})*@)?(?:\\[${IPV6_IN_URI}\\]|${IPV4_IN_URI}|(?:${sub}]|${PCT})*)(?::\\d*)?(?:\\/${pchar}*)*|\\/(?:${pchar}+(?:\\/${pchar}*)*)?|${pchar}+(?:\\/${pchar}*)*)`;
};
const queryAndFragment = (quote: string) => `(?:\\?(?:[a-z0-9\\-._~!$&'${quote}()*+,;=:@/?]|${PCT})*)?(?:#(?:[a-z0-9\\-._~!$&'${quote}()*+,;=:@/?]|${PCT})*)?`;
const URI = new RegExp(`^(?:[a-z][a-z0-9+\\-.]*:)${hierarchy('')}${queryAndFragment('')}$`, 'i');
const URI_REFERENCE = new RegExp(`^(?:[a-z][a-z0-9+\\-.]*:)?${hierarchy('"')}?${queryAndFragment('"')}$`, 'i');
const NOT_URI_FRAGMENT = /\/|:/;

const BYTE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/gm;
const Z_ANCHOR = /[^\\]\\Z/;

const IPV4_OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = `(?:${IPV4_OCTET}\\.){3}${IPV4_OCTET}`;
const IPV4_GROUPED = `((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3})`;
const HEX = '[0-9a-f]{1,4}';
const IPV6 = new RegExp(
  `^(((${HEX}:){7}(${HEX}|:))|((${HEX}:){6}(:${HEX}|${IPV4_GROUPED}|:))|((${HEX}:){5}(((:${HEX}){1,2})|:${IPV4_GROUPED}|:))|((${HEX}:){4}(((:${HEX}){1,3})|((:${HEX})?:${IPV4_GROUPED})|:))|((${HEX}:){3}(((:${HEX}){1,4})|((:${HEX}){0,2}:${IPV4_GROUPED})|:))|((${HEX}:){2}(((:${HEX}){1,5})|((:${HEX}){0,3}:${IPV4_GROUPED})|:))|((${HEX}:){1}(((:${HEX}){1,6})|((:${HEX}){0,4}:${IPV4_GROUPED})|:))|(:(((:${HEX}){1,7})|((:${HEX}){0,5}:${IPV4_GROUPED})|:)))$`,
  'i',
);

const string = (test: Test): Format => ({ type: 'string', test });
const number = (test: Test): Format => ({ type: 'number', test });
const anyNumber = number(() => true);

/** Every format checked, by name; `true`: a known format that checks nothing. */
export const FORMATS: Record<string, Format | true> = {
  date: string(date),
  time: string(time(true)),
  'date-time': string(dateTime(true)),
  'iso-time': string(time(false)),
  'iso-date-time': string(dateTime(false)),
  duration: string(matches(/^P(?!$)((\d+Y)?(\d+M)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?|(\d+W)?)$/)),
  uri: string((text) => NOT_URI_FRAGMENT.test(text) && URI.test(text)),
  'uri-reference': string(matches(URI_REFERENCE)),
  'uri-template': string(matches(/^(?:(?:[^\x00-\x20"'<>%\\^`{|}]|%[0-9a-f]{2})|\{[+#./;?&=,!@|]?(?:[a-z0-9_]|%[0-9a-f]{2})+(?::[1-9][0-9]{0,3}|\*)?(?:,(?:[a-z0-9_]|%[0-9a-f]{2})+(?::[1-9][0-9]{0,3}|\*)?)*\})*$/i)),
  url: string(
    matches(
      /^(?:https?|ftp):\/\/(?:\S+(?::\S*)?@)?(?:(?!(?:10|127)(?:\.\d{1,3}){3})(?!(?:169\.254|192\.168)(?:\.\d{1,3}){2})(?!172\.(?:1[6-9]|2\d|3[0-1])(?:\.\d{1,3}){2})(?:[1-9]\d?|1\d\d|2[01]\d|22[0-3])(?:\.(?:1?\d{1,2}|2[0-4]\d|25[0-5])){2}(?:\.(?:[1-9]\d?|1\d\d|2[0-4]\d|25[0-4]))|(?:(?:[a-z0-9\u{00a1}-\u{ffff}]+-)*[a-z0-9\u{00a1}-\u{ffff}]+)(?:\.(?:[a-z0-9\u{00a1}-\u{ffff}]+-)*[a-z0-9\u{00a1}-\u{ffff}]+)*(?:\.(?:[a-z\u{00a1}-\u{ffff}]{2,})))(?::\d{2,5})?(?:\/[^\s]*)?$/iu,
    ),
  ),
  email: string(matches(/^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i)),
  hostname: string(matches(/^(?=.{1,253}\.?$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[-0-9a-z]{0,61}[0-9a-z])?)*\.?$/i)),
  ipv4: string(matches(new RegExp(`^${IPV4}$`))),
  ipv6: string(matches(IPV6)),
  regex: string((text) => {
    if (Z_ANCHOR.test(text)) return false;
    try {
      new RegExp(text);
      return true;
    } catch {
      return false;
    }
  }),
  uuid: string(matches(/^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i)),
  'json-pointer': string(matches(/^(?:\/(?:[^~/]|~0|~1)*)*$/)),
  'json-pointer-uri-fragment': string(matches(/^#(?:\/(?:[a-z0-9_\-.!$&'()*+,;:=@]|%[0-9a-f]{2}|~0|~1)*)*$/i)),
  'relative-json-pointer': string(matches(/^(?:0|[1-9][0-9]*)(?:#|(?:\/(?:[^~/]|~0|~1)*)*)$/)),
  byte: string((text) => {
    BYTE.lastIndex = 0;
    return BYTE.test(text);
  }),
  int32: number((value) => Number.isInteger(value) && value <= 2 ** 31 - 1 && value >= -(2 ** 31)),
  // Every integer a JSON number can hold fits 64 bits.
  int64: number((value) => Number.isInteger(value)),
  float: anyNumber,
  double: anyNumber,
  password: true,
  binary: true,
};
