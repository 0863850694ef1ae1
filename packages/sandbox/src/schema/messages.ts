// The English messages of each keyword's problems, word for word as ajv 8 says them (an
// integrator may already match on them), with the params they carry.

const LIMIT_WORDS: Record<string, string> = { maximum: '<=', minimum: '>=', exclusiveMaximum: '<', exclusiveMinimum: '>' };

export const messages = {
  falseSchema: () => 'boolean schema is false',
  type: (type: unknown) => `must be ${String(type)}`,
  const: () => 'must be equal to constant',
  enum: () => 'must be equal to one of the allowed values',
  not: () => 'must NOT be valid',
  anyOf: () => 'must match a schema in anyOf',
  oneOf: () => 'must match exactly one schema in oneOf',
  if: (clause: unknown) => `must match "${String(clause)}" schema`,
  comparison: (keyword: string) => LIMIT_WORDS[keyword]!,
  limitNumber: (keyword: string, limit: number) => `must be ${LIMIT_WORDS[keyword]} ${limit}`,
  multipleOf: (of: number) => `must be multiple of ${of}`,
  length: (keyword: string, limit: number) => `must NOT have ${keyword === 'maxLength' ? 'more' : 'fewer'} than ${limit} characters`,
  pattern: (pattern: string) => `must match pattern "${pattern}"`,
  format: (format: string) => `must match format "${format}"`,
  itemCount: (keyword: string, limit: number) => `must NOT have ${keyword === 'maxItems' ? 'more' : 'fewer'} than ${limit} items`,
  /** Items beyond those allowed (items: false after prefixItems, unevaluatedItems: false). */
  tooManyItems: (limit: unknown) => `must NOT have more than ${String(limit)} items`,
  contains: (min: number, max: number | undefined) => (max === undefined ? `must contain at least ${min} valid item(s)` : `must contain at least ${min} and no more than ${max} valid item(s)`),
  uniqueItems: (i: number, j: number) => `must NOT have duplicate items (items ## ${j} and ${i} are identical)`,
  propertyCount: (keyword: string, limit: number) => `must NOT have ${keyword === 'maxProperties' ? 'more' : 'fewer'} than ${limit} properties`,
  required: (property: string) => `must have required property '${property}'`,
  dependentRequired: (property: string, deps: string[]) => `must have ${deps.length === 1 ? 'property' : 'properties'} ${deps.join(', ')} when property ${property} is present`,
  propertyNames: () => 'property name must be valid',
  additionalProperties: () => 'must NOT have additional properties',
  unevaluatedProperties: () => 'must NOT have unevaluated properties',
};
