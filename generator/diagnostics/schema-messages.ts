// The catalogue's schema messages (DDB001–DDB194, DDB270–DDB271): what loading and validating a
// schema finds wrong in its table, keys, entities, attributes, indexes, shards and edges. Part of
// the one catalogue messages.ts assembles; each entry returns what was found and a concrete fix.

/** Values quoted and listed: "a", "b". */
export const quotedList = (values: readonly string[]) => values.map((v) => `"${v}"`).join(', ');

export const schemaMessages = {
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
    fix: 'DynamoDB index names are 3 to 255 characters of a-z, A-Z, 0-9, _, - and . (AWS: "Supported data types and naming rules in Amazon DynamoDB"), and ddbgen names methods after the index (byName → queryByName), so use 3 to 255 letters, digits or _ starting with a letter: e.g. "byName"',
  }),
  DDB024: (entity: string, index: string, method: string, owner: string) => ({
    message: `index "${index}" would give ${entity}Repository a method ${method}, which ${owner === `${entity}Repository` ? 'it already has' : `${owner} already makes`}`,
    fix: `rename the index so its methods (query<Index>, query<Index>All, query<Index>Between, query<Index>AcrossTables, mark<Index>, clear<Index>) are new names, e.g. "by${index.charAt(0).toUpperCase()}${index.slice(1)}"`,
  }),
  DDB030: (placeholder: string, known: readonly string[]) => ({
    message: `placeholder <${placeholder}> names no attribute of this entity`,
    fix: known.length ? `use one of ${quotedList(known)}, or declare "${placeholder}" in attributes` : `declare "${placeholder}" in attributes`,
  }),
  DDB031: (segment: string, reason: string) => ({
    message: `key segment ${JSON.stringify(segment)} ${reason}`,
    fix: 'a segment is literal text or exactly one <attribute>, separated by the delimiter, e.g. "Article.<updatedAt>.<articleId>" (a table whose items another writer keyed declares keyFormat, and may then glue text to a value: "user_<id>")',
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
    fix: 'a key with <shard> needs shard: { count, by?, random?, start? } on that key, and shard needs <shard> in the partition-key template',
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
    fix: declared.length ? `use one of ${quotedList(declared)}, or declare it in the table's indexes` : `declare it in the table's indexes with gsi({ … }) or lsi({ … })`,
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
    fix: options.length ? `use one of ${quotedList(options)}` : 'declare it first',
  }),
  DDB071: (found: string, options: readonly string[]) => ({
    message: found,
    fix: options.length ? `use ${quotedList(options)}` : 'map the entity into the index first (entity indexes: { … })',
  }),
  DDB072: (found: string, options: readonly string[]) => ({
    message: found,
    fix: options.length ? `compare one of ${quotedList(options)}` : 'the access path has no sort key to compare',
  }),
  DDB073: (found: string, options: readonly string[]) => ({
    message: found,
    fix: `use one of ${quotedList(options)}, or key a string attribute`,
  }),
  DDB075: (found: string) => ({
    message: found,
    fix: 'declare edge({ types: [\'User\', \'Actor\'], forward: \'FAN_OF\', inverse: \'FANNED_BY\' }) on a table with a sort key',
  }),
  DDB080: (field: string, found: string) => ({
    message: `traffic ${field} is ${found}`,
    fix: 'traffic numbers are finite and not negative; hotKeyShare is a fraction from 0 to 1; leave a number out when unknown',
  }),
  DDB081: (found: string, options: readonly string[]) => ({
    message: found,
    fix: `use ${quotedList(options)}`,
  }),
  DDB160: (owner: string, name: string) => ({
    message: `${owner} declares attribute "${name}", a name that reaches into JavaScript's object prototype`,
    fix: `rename it, e.g. "${name.replace(/_/g, '')}Value"; __proto__, constructor, prototype and the members every object inherits (toString, valueOf, hasOwnProperty, …) are refused as attribute and map-field names, because plain objects and JSON input treat them specially`,
  }),
  DDB090: (folder: string, stale: string, command: string) => ({
    message: `the generated output in ${folder} no longer matches this schema (${stale}): what generate --check reports`,
    fix: `run ${command} to regenerate it`,
  }),
  DDB099: (detail: string) => ({
    message: `internal error: the generated code does not compile: ${detail}`,
    fix: 'this is a ddbgen bug; please report it with your schema',
  }),
  DDB100: (what: string, word: string) => ({
    message: `${what} is a reserved word of JavaScript or TypeScript, so the generated code would not compile`,
    fix: `rename it, e.g. "${word.charAt(0).toUpperCase()}${word.slice(1)}Item"`,
  }),
  DDB101: (what: string, name: string, source: 'global' | 'runtime') => ({
    message: `${what} would declare "${name}" in the generated code, which is ${source === 'global' ? 'a JavaScript global the generated code uses' : 'the name of a ddbgen runtime helper the generated code imports'}`,
    fix: `rename it so that it does not produce "${name}", e.g. "${name}Record"`,
  }),
  DDB102: (what: string, other: string, name: string) => ({
    message: `${what} and ${other} both produce "${name}" in the generated code, so one would replace the other`,
    fix: 'rename one of them: names that differ only in case (or in _ and -) share files and members, and a name that is another plus a suffix (Order, OrderKey) shares generated type names',
  }),
  DDB103: () => ({
    message: 'an entity has no key',
    fix: "give it key: { pk: '…', sk: '…' }, e.g. key: { pk: 'User#<id>', sk: 'PROFILE' }",
  }),
  DDB104: (count: number) => ({
    message: `the table declares ${count} local secondary indexes; DynamoDB allows at most 5 per table (a fixed limit, "Local secondary indexes" in the DynamoDB quotas)`,
    fix: 'keep at most 5 LSIs: turn the others into GSIs, or serve those queries from a sort-key prefix of the table',
  }),
  DDB105: (count: number, quota: number) => ({
    message: `the table declares ${count} global secondary indexes; DynamoDB allows ${quota} per table${quota === 20 ? ' by default (the "Global secondary indexes per table" quota)' : ' (the declared gsiQuota)'}`,
    fix: quota === 20
      ? 'remove or merge indexes (overload one GSI with several entities\' keys), or request a higher quota from AWS Service Quotas and declare it with gsiQuota: <n> on the table'
      : `remove or merge indexes, or raise gsiQuota after AWS Service Quotas has raised the quota`,
  }),
  DDB106: (which: string, bytes: number, limit: number) => ({
    message: `the literal text of this ${which} template alone is ${bytes} bytes (UTF-8), above DynamoDB's ${limit}-byte limit for a ${which}: every key built from it would be rejected`,
    fix: `shorten the literal segments to well under ${limit} bytes, leaving room for the values`,
  }),
  DDB107: (found: string) => ({
    message: found,
    fix: 'gsiQuota is the "Global secondary indexes per table" quota AWS raised for your account: a whole number above 20 (leave it out for the default 20)',
  }),
  DDB108: (found: string, allowed: readonly string[]) => ({
    message: found,
    fix: `use rotation: ${allowed.map((v) => `'${v}'`).join(' or ')}, or leave it out for one table`,
  }),
  DDB109: (name: string, length: number) => ({
    message: `table name "${name}" is ${length} character${length === 1 ? '' : 's'} long; DynamoDB table names are 3 to 255 characters (a-z, A-Z, 0-9, _, - and .; AWS: "Supported data types and naming rules in Amazon DynamoDB"), so CreateTable would reject it`,
    fix: length < 3
      ? `use a name of at least 3 characters (letters, digits and _, starting with a letter, as ddbgen names the output after it), e.g. "${name}Table"`
      : `shorten the name to at most 255 characters`,
  }),
  DDB110: (rotation: string, suffix: string, length: number, room: number) => ({
    message: `with rotation '${rotation}', the table's physical names are its name plus "${suffix}" (one table per period), ${length} characters, above DynamoDB's 255 for a table name (AWS: "Supported data types and naming rules in Amazon DynamoDB"): those tables could not be created`,
    fix: `shorten the table name to at most ${room} characters, so the longest rotated name fits 255`,
  }),
  DDB120: (attribute: string, key: string, identity: readonly string[]) => ({
    message: `shard.by names "${attribute}", which is not part of the key ${key}: a suffix hashed from it would change while the key stays the same, so one item could be written twice and read back from the wrong shard`,
    fix: identity.length ? `hash attributes the key holds: by one of ${quotedList(identity)}, or leave by out to hash the whole key` : 'leave by out, or use random: true',
  }),
  DDB121: (pk: string, inputs: readonly string[]) => ({
    message: inputs.length
      ? `the shard suffix of ${pk} is calculated from ${quotedList(inputs)}, which the partition key already holds: every item of a partition gets the same suffix, so it spreads nothing`
      : `the shard suffix of ${pk} is calculated from nothing that varies (the key has no other parts): every item gets the same suffix, so it spreads nothing`,
    fix: 'calculate it from a finer attribute of the key (shard: { count, by: \'<attribute in the sort key>\' }), or draw it per write with shard: { count, random: true } (read back by getAll, sum or a gathered query)',
  }),
  DDB122: (by: string) => ({
    message: `shard is random and also names by (${by}): a random suffix is drawn per write, a calculated one is hashed from by; it cannot be both`,
    fix: 'remove by for a random suffix (items read back by gathering every shard), or remove random: true to calculate the suffix from by',
  }),
  DDB123: (start: string) => ({
    message: `shard start ${start} is not a whole number from 0 to 1,000,000`,
    fix: 'leave start out for suffixes 0..count-1, or give start: 1 for suffixes 1..count',
  }),
  DDB124: (attribute: string, found: string) => ({
    message: `attribute "${attribute}" declares a unit but ${found}`,
    fix: 'a unit belongs on t.timestamp({ unit }) and is one of "second", "minute", "hour", "day", "month"',
  }),
  DDB125: (attribute: string, truncation: string, key: string) => ({
    message: `the primary key ${key} holds "${attribute}" only truncated to the ${truncation}, and no finer sort-key part tells items apart: one item per ${truncation} keeps one value of "${attribute}" (the first or last write's exact time)`,
    fix: `declare the precision you mean: ${attribute}: t.timestamp({ unit: '${truncation}' }) stores the ${truncation}'s start; or add a finer part (an id, <${attribute}>) to the sort key to keep one item per event`,
  }),
  DDB140: (edge: string, type: string, entities: readonly string[], delimiter: string) => ({
    message: `node type "${type}" of edge ${edge} is not an entity of this table`,
    fix: entities.length
      ? `declare entity ${type}, keyed by its own id (e.g. key: { pk: '${type}${delimiter}<id>', sk: 'PROFILE' }), or connect declared entities: ${quotedList(entities)}`
      : `declare entity ${type}, keyed by its own id (e.g. key: { pk: '${type}${delimiter}<id>', sk: 'PROFILE' })`,
  }),
  DDB141: (edge: string, type: string, pk: string, reason: string, delimiter: string) => ({
    message: `entity ${type}'s partition key "${pk}" cannot be a node key of edge ${edge}: ${reason}`,
    fix: `key ${type} by its own id, e.g. key: { pk: '${type}${delimiter}<id>', sk: 'PROFILE' }, so a node's key is the one partition that holds that ${type} and its edges`,
  }),
  DDB142: (edge: string, a: string, b: string, shapes: string, delimiter: string) => ({
    message: `node types ${a} and ${b} of edge ${edge} can have the same node key (${shapes}), so their edges would mix`,
    fix: `give ${b} a partition key of its own, e.g. pk '${b}${delimiter}<id>', or connect only one of them`,
  }),
  DDB170: (template: string, reason: string) => ({
    message: `key template ${JSON.stringify(template)} ${reason}`,
    fix: 'key text is printed into generated code and its comments: use printable characters (letters, digits, spaces, punctuation such as # . : | - _ /) without "/*", "*/", "${" or "`"',
  }),
  DDB190: (owner: string, space: string, spaces: readonly string[]) => ({
    message: `traffic.hotKeyShare names "${space}", which is not a key space of ${owner}`,
    fix: `name one of ${quotedList(spaces)} (the table key and each GSI the entity maps into; an edge's forward and inverse sides), or give one number for ${spaces[0] === 'forward' ? 'both sides' : 'the table key'}`,
  }),
  DDB191: (field: string, found: string) => ({
    message: `${field} is ${found}, not true or false`,
    fix: `write ${field}: true, or leave it out (false): consistent reads and transactional writes cost twice the units`,
  }),
  DDB192: (pattern: string, index: string) => ({
    message: `pattern "${pattern}" asks for strongly consistent reads on GSI "${index}", which serves only eventually consistent reads`,
    fix: 'remove consistent: true, or read through the table key or an LSI, which can read strongly consistent',
  }),
  DDB193: (attribute: string, found: string) => ({
    message: `list "${attribute}" has maxItems ${found}`,
    fix: 'maxItems is a positive integer: the most elements the list holds, used to check the item against 400 KB',
  }),
  DDB194: (index: string) => ({
    message: `GSI "${index}" declares capacity, but the table is on-demand`,
    fix: "give the table capacity: { mode: 'provisioned', read, write }, or remove the GSI's capacity (warmThroughput sets what an on-demand index serves at once)",
  }),
  DDB270: (entity: string, attribute: string, storedAs: string, problem: string) => ({
    message: `${entity}.${attribute} is stored as ${JSON.stringify(storedAs)}, which ${problem}`,
    fix: "give storedAs the exact name the table holds the attribute under, used by no other attribute, key attribute or discriminator; storedAs renames an entity's own attributes (not map fields or list elements), and not the version, the ttl attribute or a native GSI's key attributes",
  }),
  DDB271: (entity: string, name: string, problem: string) => ({
    message: `${entity}'s discriminator attribute "${name}" ${problem}`,
    fix: "name attributes the entity does not declare, each with its fixed non-empty string value, e.g. discriminator: { _et: 'User' } (DynamoDB-Toolbox) or { __edb_e__: 'user', __edb_v__: '1' } (ElectroDB)",
  }),
} satisfies Record<string, (...args: never[]) => { message: string; fix: string }>;
