// The version change options of `api:version`, in the order given, as record entries
// (@payroll-api/version-changes): --rename a.b=c, --remove a.b[=<older versions' value>],
// --add a.b:<type>[=<default>], --retype a.b:<type> (with --conversion <name>, one per
// --retype in order; left out, it is <old type>-to-<type>).
import { CONVERSIONS, FIELD_TYPES } from '@payroll-api/version-changes';
import YAML from 'yaml';

export const CHANGE_OPTIONS = {
  rename: { type: 'string', multiple: true },
  remove: { type: 'string', multiple: true },
  add: { type: 'string', multiple: true },
  retype: { type: 'string', multiple: true },
  conversion: { type: 'string', multiple: true },
};

export const CHANGE_USAGE = `--rename <field>=<newName>  --remove <field>[=<value older versions read>]
            --add <field>:<type>[=<default>]  --retype <field>:<type> [--conversion <name>]
            fields are dotted paths (arrays of objects are walked); types: ${FIELD_TYPES.join(', ')};
            conversions: ${Object.keys(CONVERSIONS).join(', ')}`;

/** A default written on the command line: YAML scalars, so `=NL`, `=0`, `=true`, `=null`. */
const scalar = (text) => YAML.parse(text);

function split(text, separator, option) {
  const at = text.indexOf(separator);
  if (at <= 0) throw new Error(`--${option} ${text}: expected <field>${separator}…`);
  return [text.slice(0, at), text.slice(at + 1)];
}

/** tokens: parseArgs({tokens: true}).tokens. Returns the record entries, in the order given. */
export function changesFromOptions(tokens) {
  const changes = [];
  const retypes = [];
  const conversions = [];
  for (const token of tokens.filter((t) => t.kind === 'option' && Object.hasOwn(CHANGE_OPTIONS, t.name))) {
    const value = token.value ?? '';
    switch (token.name) {
      case 'rename': {
        const [field, to] = split(value, '=', 'rename');
        changes.push({ rename: field, to });
        break;
      }
      case 'remove': {
        const at = value.indexOf('=');
        changes.push(at === -1 ? { remove: value } : { remove: value.slice(0, at), default: scalar(value.slice(at + 1)) });
        break;
      }
      case 'add': {
        const [field, rest] = split(value, ':', 'add');
        const at = rest.indexOf('=');
        changes.push(at === -1 ? { add: field, type: rest } : { add: field, type: rest.slice(0, at), default: scalar(rest.slice(at + 1)) });
        break;
      }
      case 'retype': {
        const [field, type] = split(value, ':', 'retype');
        const change = { retype: field, type };
        retypes.push(change);
        changes.push(change);
        break;
      }
      default:
        conversions.push(value);
    }
  }
  if (conversions.length > retypes.length) throw new Error(`${conversions.length} --conversion for ${retypes.length} --retype: give one per --retype, in the same order`);
  conversions.forEach((conversion, i) => {
    retypes[i].conversion = conversion;
  });
  return changes;
}
