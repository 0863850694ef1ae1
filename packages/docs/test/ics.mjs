// A strict-enough reader of iCalendar (RFC 5545) text for the tests: unfolds lines, checks
// every content line's shape and the BEGIN/END nesting, and returns the components.

/** Parses iCalendar text into nested components {name, properties: [{name, params, value}], children}. */
export function parseIcs(text) {
  if (!text.includes('\r\n')) throw new Error('lines must end with CRLF');
  const lines = text.replace(/\r\n[ \t]/g, '').split('\r\n');
  if (lines.at(-1) === '') lines.pop();
  const root = { name: '(root)', properties: [], children: [] };
  const stack = [root];
  for (const [index, line] of lines.entries()) {
    const match = /^([A-Za-z0-9-]+)((?:;[^:;]+)*):(.*)$/.exec(line);
    if (!match) throw new Error(`line ${index + 1} is not a content line: ${JSON.stringify(line)}`);
    const [, name, params, value] = match;
    if (name === 'BEGIN') {
      const component = { name: value, properties: [], children: [] };
      stack.at(-1).children.push(component);
      stack.push(component);
    } else if (name === 'END') {
      const open = stack.pop();
      if (!open || open === root || open.name !== value) throw new Error(`line ${index + 1}: END:${value} does not close ${open?.name}`);
    } else {
      if (stack.length === 1) throw new Error(`line ${index + 1}: property outside any component`);
      stack.at(-1).properties.push({ name, params: params.slice(1), value });
    }
  }
  if (stack.length !== 1) throw new Error(`${stack.at(-1).name} is not closed`);
  return root.children;
}

export const property = (component, name) => component.properties.find((p) => p.name === name);
