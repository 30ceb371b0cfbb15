// Every user-facing validation message, in one catalogue keyed by stable code. Each entry returns
// what was found and a concrete fix; tests assert these strings.

const list = (values: readonly string[]) => values.map((v) => `"${v}"`).join(', ');

export const messages = {
  DDB001: (file: string, reason: string) => ({
    message: `cannot load schema ${file}: ${reason}`,
    fix: 'fix the error above so the module runs; a schema module must import from "ddbgen" and default-export defineTable(…)',
  }),
  DDB002: (found: string) => ({
    message: `the default export is ${found}`,
    fix: 'export default defineTable({ … }) or an array of tables',
  }),
  DDB010: (name: string) => ({
    message: `table name "${name}" is not a valid identifier`,
    fix: 'use letters, digits and _, starting with a letter, e.g. "Social"; it names the output folder and the <Name>Table class',
  }),
  DDB011: (delimiter: string) => ({
    message: `delimiter ${JSON.stringify(delimiter)} is not one ASCII punctuation character (other than \\ < > \`)`,
    fix: 'use a single character such as "#", ".", ":" or "|"',
  }),
  DDB012: (name: string, other: string) => ({
    message: `table "${name}" is declared twice (also in ${other})`,
    fix: 'give each table its own name',
  }),
  DDB013: (attribute: string, uses: string) => ({
    message: `attribute name "${attribute}" is used twice as a key attribute (${uses})`,
    fix: 'give the table key and each index key their own physical attribute names, e.g. gsi1pk / gsi1sk',
  }),
  DDB020: (name: string, what: string) => ({
    message: `${what} name "${name}" is not a valid identifier`,
    fix: `use PascalCase letters and digits, e.g. "${name.replace(/[^A-Za-z0-9]/g, '') || 'Item'}"`,
  }),
  DDB021: (name: string) => ({
    message: `entity "${name}" is declared more than once`,
    fix: 'remove or rename one of the declarations; the last one silently replaces the others',
  }),
  DDB022: (entity: string, attribute: string, keyAttribute: string) => ({
    message: `${entity} declares attribute "${attribute}", which is the table's key attribute "${keyAttribute}"`,
    fix: `rename the attribute; "${keyAttribute}" holds the generated key`,
  }),
  DDB023: (name: string) => ({
    message: `index name "${name}" is not 3 to 255 letters, digits or _ starting with a letter`,
    fix: 'DynamoDB needs 3 to 255 characters, and ddbgen names methods after the index (byName → queryByName): e.g. "byName"',
  }),
  DDB030: (placeholder: string, known: readonly string[]) => ({
    message: `placeholder <${placeholder}> names no attribute of this entity`,
    fix: known.length ? `use one of ${list(known)}, or declare "${placeholder}" in attributes` : `declare "${placeholder}" in attributes`,
  }),
  DDB031: (segment: string, reason: string) => ({
    message: `key segment ${JSON.stringify(segment)} ${reason}`,
    fix: 'a segment is literal text or exactly one <attribute>, separated by the delimiter, e.g. "Article.<updatedAt>.<articleId>"',
  }),
  DDB032: (placeholder: string, kind: string) => ({
    message: `<${placeholder}> truncates a ${kind} attribute; only timestamps truncate, to minute, hour, day or month`,
    fix: 'remove the ":unit" suffix, or truncate a t.timestamp() attribute',
  }),
  DDB033: (attribute: string, kind: string) => ({
    message: `"${attribute}" is a ${kind} attribute, which cannot be part of a key`,
    fix: 'key parts are strings, enums, numbers, timestamps or booleans; key on a scalar attribute',
  }),
  DDB034: (attribute: string, found: string) => ({
    message: `number "${attribute}" is in a key, but ${found}`,
    fix: `declare its range, e.g. t.number({ min: 0, max: 1e12, integer: true }): keys encode numbers fixed-width so they sort`,
  }),
  DDB035: (attribute: string) => ({
    message: `optional attribute "${attribute}" is part of the primary key`,
    fix: `make "${attribute}" required, or move it to an index mapping (optional attributes make an index sparse)`,
  }),
  DDB036: (found: string) => ({
    message: found,
    fix: 'give every entity a sort-key template when the table has a sort key (a literal like "PROFILE" is fine), and none when it has not',
  }),
  DDB037: (found: string) => ({
    message: found,
    fix: 'a key with <shard> needs shard: { count, by? } on that key, and shard needs <shard> in the partition-key template',
  }),
  DDB040: (a: string, b: string, example: string, delimiter: string) => ({
    message: `${a} and ${b} can build the same key (${example}): one would overwrite the other`,
    fix: `give one of them a literal segment of its own, e.g. a sort key starting "${b}${delimiter}"`,
  }),
  DDB041: (reader: string, other: string, prefix: string) => ({
    message:
      prefix === ''
        ? `queries on ${reader} would also read ${other} items: ${reader}'s sort key starts with a value, so its queries read the whole partition`
        : `queries on ${reader} would also read ${other} items: ${other}'s sort key can begin with ${JSON.stringify(prefix)}`,
    fix: `start ${other}'s sort key with a literal of its own, or start ${reader}'s sort key with one`,
  }),
  DDB050: (index: string, declared: readonly string[]) => ({
    message: `index "${index}" is not declared on the table`,
    fix: declared.length ? `use one of ${list(declared)}, or declare it in the table's indexes` : `declare it in the table's indexes with gsi({ … }) or lsi({ … })`,
  }),
  DDB051: (found: string) => ({
    message: found,
    fix: 'a GSI mapping gives pk (and sk when the index has a sort key); an LSI mapping gives only sk',
  }),
  DDB060: (attribute: string, found: string) => ({
    message: `version attribute "${attribute}" ${found}`,
    fix: 'declare it as t.number({ integer: true }) among the attributes',
  }),
  DDB070: (found: string, options: readonly string[]) => ({
    message: found,
    fix: options.length ? `use one of ${list(options)}` : 'declare it first',
  }),
  DDB071: (found: string, options: readonly string[]) => ({
    message: found,
    fix: options.length ? `use ${list(options)}` : 'map the entity into the index first (entity indexes: { … })',
  }),
  DDB072: (found: string, options: readonly string[]) => ({
    message: found,
    fix: options.length ? `compare one of ${list(options)}` : 'the access path has no sort key to compare',
  }),
  DDB073: (found: string, options: readonly string[]) => ({
    message: found,
    fix: `use one of ${list(options)}, or key a string attribute`,
  }),
  DDB090: (feature: string, issue: string) => ({
    message: `${feature} are declared but this version of ddbgen does not generate them yet`,
    fix: `remove them for now; they are tracked in ${issue}`,
  }),
  DDB099: (detail: string) => ({
    message: `internal error: the generated code does not compile: ${detail}`,
    fix: 'this is a ddbgen bug; please report it with your schema',
  }),
} satisfies Record<string, (...args: never[]) => { message: string; fix: string }>;

export type MessageCode = keyof typeof messages;
