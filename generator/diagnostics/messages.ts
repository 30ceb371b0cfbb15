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
    fix: `use ${list(options)}`,
  }),
  DDB099: (detail: string) => ({
    message: `internal error: the generated code does not compile: ${detail}`,
    fix: 'this is a ddbgen bug; please report it with your schema',
  }),
  DDB140: (edge: string, type: string, entities: readonly string[], delimiter: string) => ({
    message: `node type "${type}" of edge ${edge} is not an entity of this table`,
    fix: entities.length
      ? `declare entity ${type}, keyed by its own id (e.g. key: { pk: '${type}${delimiter}<id>', sk: 'PROFILE' }), or connect declared entities: ${list(entities)}`
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
    fix: `name one of ${list(spaces)} (the table key and each GSI the entity maps into; an edge's forward and inverse sides), or give one number for ${spaces[0] === 'forward' ? 'both sides' : 'the table key'}`,
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
} satisfies Record<string, (...args: never[]) => { message: string; fix: string }>;

/** The hot-key lint's messages (rule ids are binding, DESIGN.md §5). Numbers come formatted. */
export const lintMessages = {
  HK001: (where: string, pk: string, load: string, fix: string) => ({
    message: `${where}: partition key "${pk}" has no placeholder, so every write goes to one key; ${load}`,
    fix,
  }),
  HK002: (where: string, pk: string, count: string, explain: string, load: string, fix: string) => ({
    message: `${where}: partition key "${pk}" takes only ${count} distinct value${count === '1' ? '' : 's'} (${explain}); ${load}`,
    fix,
  }),
  HK003: (where: string, pk: string, bucket: string, load: string, fix: string) => ({
    message: `${where}: partition key "${pk}" is a time bucket (${bucket}) without a shard: every write in a period goes to one key; ${load}`,
    fix,
  }),
  HK004: (where: string, load: string, fix: string) => ({
    message: `${where}: one item takes ${load}; a single item cannot exceed 1,000 WCU/s, even after adaptive capacity isolates it`,
    fix: `${fix}; or buffer writes through a queue or stream and apply them in batches`,
  }),
  HK005: (where: string, load: string, fix: string) => ({
    message: `${where}: one item takes ${load}; a single item cannot exceed 3,000 RCU/s`,
    fix,
  }),
  HK006: (where: string, why: string, load: string, fix: string) => ({
    message: `${where}: ${why}, so split-for-heat cannot spread its hottest collection: ${load}`,
    fix,
  }),
  HK007: (where: string, load: string, fix: string) => ({
    message: `${where}: the declared skew puts ${load}`,
    fix,
  }),
  HK008: (where: string, problem: string, fix: string) => ({
    message: `${where}: ${problem}; a throttled GSI throttles writes to the base table too`,
    fix,
  }),
  HK009: (where: string, problem: string, fix: string) => ({ message: `${where}: ${problem}`, fix }),
  HK010: (where: string, problem: string, fix: string) => ({ message: `${where}: ${problem}`, fix }),
  HK011: (where: string, size: string, limit: string, source: string, fix: string) => ({
    message: `${where}: items are ${size} (${source}), ${limit}`,
    fix,
  }),
  HK012: (where: string, peak: string, warm: string, doublings: number, minutes: number) => ({
    message: `${where}: declared peak ${peak} is above the ${warm} it serves at once (its warm throughput); reaching it takes ${doublings} doubling${doublings === 1 ? '' : 's'} of 30 minutes (${minutes} min) of throttling risk`,
    fix: `pre-warm it to the peak before launch (warmThroughput: { read, write } on the ${where.startsWith('GSI') ? 'gsi' : 'table capacity'}, WarmThroughput in CreateTable), or ramp traffic up over ${minutes} min`,
  }),
  HK013: (total: string) => ({
    message: `declared ${total} for the table and its GSIs is above the default quota of 40,000 per table`,
    fix: 'request a quota increase for the table before launch (Service Quotas), or spread the load over tables',
  }),
  HK014: (where: string, rate: string) => ({
    message: `${where}: ${rate} conditional (versioned) writes per second on one item will conflict; each loser retries and pays again`,
    fix: 'take the shared item out of the hot path: keep per-writer items and aggregate them, or update it with an unconditional ADD',
  }),
  HK015: (where: string, shards: number, how: string, queries: string | undefined) => ({
    message: `${where}: ${shards} shards, and ${how}: each gathered read issues ${shards} queries${queries ? ` (${queries})` : ''}`,
    fix: 'use fewer shards (N = ceil(peak WCU on one key / (1,000 × 0.8)) is enough), a calculated suffix (shard.by) so reads that know the item target one shard, or keep an aggregate item for the common read',
  }),
  HK016: (where: string, attribute: string) => ({
    message: `${where}: key template contains "${attribute}", which is marked pii; keys appear in metrics (Contributor Insights), logs and cursors`,
    fix: `key on a surrogate id, or on a keyed hash of "${attribute}", and keep the value itself in a non-key attribute`,
  }),
  HK017: (where: string, pk: string, load: string, fix: string) => ({
    message: `${where}: sharded key "${pk}" is still too hot: ${load}`,
    fix,
  }),
  HK018: (where: string, found: string, fix: string) => ({
    message: `${where}: ${found}`,
    fix,
  }),
} satisfies Record<string, (...args: never[]) => { message: string; fix: string }>;

export type MessageCode = keyof typeof messages;
