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
  DDB160: (owner: string, name: string) => ({
    message: `${owner} declares attribute "${name}", a name that reaches into JavaScript's object prototype`,
    fix: `rename it, e.g. "${name.replace(/_/g, '')}Value"; __proto__, constructor and prototype are refused as attribute and map-field names, because plain objects and JSON input treat them specially`,
  }),
  DDB099: (detail: string) => ({
    message: `internal error: the generated code does not compile: ${detail}`,
    fix: 'this is a ddbgen bug; please report it with your schema',
  }),
} satisfies Record<string, (...args: never[]) => { message: string; fix: string }>;

/** The hot-key lint's messages (rule ids are binding, DESIGN.md §5). Numbers come formatted. */
export const lintMessages = {
  HK001: (where: string, pk: string, load: string | undefined, fix: string) => ({
    message: `${where}: partition key "${pk}" has no placeholder, so every write goes to one key${load ? `; declared ${load} WCU/s, above the 1,000 one partition takes` : ''}`,
    fix,
  }),
  HK002: (where: string, pk: string, count: string, explain: string, load: string | undefined, fix: string) => ({
    message: `${where}: partition key "${pk}" takes only ${count} distinct value${count === '1' ? '' : 's'} (${explain})${load ? `; the hottest takes ${load}` : ''}`,
    fix,
  }),
  HK003: (where: string, pk: string, bucket: string, load: string | undefined, fix: string) => ({
    message: `${where}: partition key "${pk}" is a time bucket (${bucket}) without a shard: every write in a period goes to one key${load ? `; declared ${load}` : ''}`,
    fix,
  }),
  HK004: (where: string, load: string, assumed: string) => ({
    message: `${where}: one item takes ${load} WCU/s (${assumed}); a single item cannot exceed 1,000 WCU/s, even after adaptive capacity isolates it`,
    fix: 'split the item: N counter items (key suffix 0..N-1) summed on read, or buffer writes through a queue or stream and apply them in batches',
  }),
  HK005: (where: string, load: string, assumed: string) => ({
    message: `${where}: one item takes ${load} RCU/s (${assumed}); a single item cannot exceed 3,000 RCU/s`,
    fix: 'cache it (DAX or an application cache), read it eventually consistent, keep read replicas of it under N keys, or read a smaller projection',
  }),
  HK006: (where: string, why: string, load: string, fix: string) => ({
    message: `${where}: ${why}, and its hottest collection takes ${load}: split-for-heat cannot spread it`,
    fix,
  }),
  HK007: (where: string, share: string, load: string, fix: string) => ({
    message: `${where}: declared hotKeyShare ${share} puts ${load} on one partition-key value, above what a partition takes`,
    fix,
  }),
  HK008: (where: string, problem: string, fix: string) => ({
    message: `${where}: ${problem}; a throttled GSI throttles writes to the base table too`,
    fix,
  }),
  HK009: (where: string, problem: string, fix: string) => ({ message: `${where}: ${problem}`, fix }),
  HK010: (where: string, problem: string, fix: string) => ({ message: `${where}: ${problem}`, fix }),
  HK011: (where: string, size: string, limit: string, source: string) => ({
    message: `${where}: items are ${size} (${source}), ${limit}`,
    fix: 'split large items into an item collection (a sort key per part), or keep blobs in S3 and store their keys',
  }),
  HK012: (peak: string, base: string, doublings: number) => ({
    message: `declared peak ${peak} is above the ${base} a new on-demand table serves at once; reaching it takes ${doublings} doubling${doublings === 1 ? '' : 's'} of 30 minutes (${doublings * 30} min) of throttling risk`,
    fix: 'pre-warm the table and its indexes (WarmThroughput) to the peak before launch, or ramp traffic up over that time',
  }),
  HK013: (total: string) => ({
    message: `declared ${total} for the table and its GSIs is above the default quota of 40,000 per table`,
    fix: 'request a quota increase for the table before launch (Service Quotas), or spread the load over tables',
  }),
  HK014: (where: string, rate: string) => ({
    message: `${where}: ${rate} conditional (versioned) writes per second on one item will conflict; each loser retries and pays again`,
    fix: 'take the shared item out of the hot path: keep per-writer items and aggregate them, or update it with an unconditional ADD',
  }),
  HK015: (where: string, shards: number, queries: string | undefined) => ({
    message: `${where}: ${shards} shards means each logical read issues ${shards} queries${queries ? ` (${queries} queries/s at the declared reads)` : ''}`,
    fix: 'use fewer shards (N = ceil(peak WCU per key / 800) is enough), a calculated suffix (shard.by) so single-item reads need one GetItem, or keep an aggregate item for the common read',
  }),
  HK016: (where: string, attribute: string) => ({
    message: `${where}: key template contains "${attribute}", which is marked pii; keys appear in metrics (Contributor Insights), logs and cursors`,
    fix: `key on a surrogate id, or on a keyed hash of "${attribute}", and keep the value itself in a non-key attribute`,
  }),
} satisfies Record<string, (...args: never[]) => { message: string; fix: string }>;

export type MessageCode = keyof typeof messages;
