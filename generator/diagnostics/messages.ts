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

/** A page per code (docs/codes/DDBnnn.md, docs/rules/HKnnn.md, printed by `ddbgen explain`): what it reports, why it matters, an example that triggers it, and the fix. */
export interface Explanation {
  readonly title: string;
  readonly why: string;
  /** Schema code that triggers it. */
  readonly example: string;
  readonly fix: string;
}

export const explanations: Partial<Record<MessageCode | keyof typeof lintMessages, Explanation>> = {
  DDB001: { title: 'the schema module cannot be loaded', why: 'ddbgen runs the schema module to read its default export; a module that throws or does not parse gives nothing to check.', example: "import { defineTable } from 'ddbgen'\nexport default defineTable({ name: 'App', entities: { } ", fix: 'Fix the error named in the message so the module runs on its own; it must import from "ddbgen" and default-export defineTable(…).' },
  DDB002: { title: 'the default export is not a table', why: 'The generator reads tables only from the default export.', example: "export const table = defineTable({ name: 'App', entities: {} });", fix: 'export default defineTable({ … }), or an array of tables.' },
  DDB010: { title: 'table name is not a valid identifier', why: 'The name becomes the output folder and the <Name>Table class.', example: "defineTable({ name: 'my-app', entities: {} })", fix: 'Use letters, digits and _, starting with a letter, e.g. "MyApp".' },
  DDB011: { title: 'delimiter is not one punctuation character', why: 'Keys are split and escaped on the delimiter; it must be one ASCII punctuation character that templates do not use for placeholders.', example: "defineTable({ name: 'App', delimiter: '::', entities: {} })", fix: 'Use a single character such as "#", ".", ":" or "|".' },
  DDB012: { title: 'table declared twice', why: 'Two tables with one name would write to the same output folder.', example: "// a.ts and b.ts both: defineTable({ name: 'App', … })", fix: 'Give each table its own name.' },
  DDB013: { title: 'key attribute name used twice', why: 'Each key (the table key and every index key) needs its own physical attribute, or one overwrites the other.', example: "indexes: { byName: gsi({ pk: 'pk', sk: 'gsi1sk' }) }", fix: 'Give the table key and each index key their own attribute names, e.g. gsi1pk / gsi1sk.' },
  DDB020: { title: 'entity or edge name is not a valid identifier', why: 'Names become TypeScript types, classes and methods.', example: "entities: { 'user-profile': entity({ … }) }", fix: 'Use PascalCase letters and digits, e.g. "UserProfile".' },
  DDB021: { title: 'entity declared more than once', why: 'The last declaration silently replaces the others.', example: 'entities: { ...common, User: entity({ … }) }  // common also has User', fix: 'Remove or rename one of the declarations.' },
  DDB022: { title: 'attribute named like a key attribute', why: 'The table key attributes hold the generated keys; an attribute of the same name would be overwritten.', example: "attributes: { pk: t.string() }", fix: 'Rename the attribute.' },
  DDB023: { title: 'index name is not valid', why: 'DynamoDB needs 3 to 255 characters, and ddbgen names methods after the index (byName → queryByName).', example: "indexes: { x: gsi({ pk: 'gsi1pk' }) }", fix: 'Use 3 to 255 letters, digits or _, starting with a letter, e.g. "byName".' },
  DDB030: { title: 'placeholder names no attribute', why: 'A key is built from the attributes its placeholders name; an unknown name cannot be filled and is usually a typo.', example: "attributes: { id: t.string() },\nkey: { pk: 'User#<idd>', sk: 'PROFILE' }", fix: 'Use one of the entity\'s attributes in the placeholder, or declare the attribute.' },
  DDB031: { title: 'malformed key segment', why: 'A segment between delimiters is either literal text or exactly one <attribute>; anything else cannot be parsed back.', example: "key: { pk: 'User#<id><name>' }", fix: 'Split it with the delimiter: "User#<id>#<name>".' },
  DDB032: { title: 'truncation on a non-timestamp', why: 'Only timestamps can be truncated to minute, hour, day or month.', example: "key: { pk: 'Score#<points:day>' }", fix: 'Remove the ":unit" suffix, or truncate a t.timestamp() attribute.' },
  DDB033: { title: 'attribute type cannot be in a key', why: 'Keys are strings built from scalar values; lists, maps, sets and binary values have no stable key encoding.', example: "attributes: { tags: t.stringSet() },\nkey: { pk: 'Tag#<tags>' }", fix: 'Key on a string, enum, number, timestamp or boolean attribute.' },
  DDB034: { title: 'number in a key without a range', why: 'Numbers are encoded fixed-width and sign-aware so they sort as numbers; that needs the declared min and max.', example: "attributes: { score: t.number() },\nkey: { sk: 'Score#<score>' }", fix: 'Declare the range, e.g. t.number({ min: 0, max: 1e12, integer: true }).' },
  DDB035: { title: 'optional attribute in the primary key', why: 'Every item needs its primary key; an optional part would leave it unbuildable.', example: "attributes: { id: t.string().optional() },\nkey: { pk: 'User#<id>' }", fix: 'Make the attribute required, or use it in an index mapping (which makes the index sparse).' },
  DDB036: { title: 'sort key template does not match the table', why: 'Every item of a table with a sort key needs one; a table without one takes none.', example: "key: { pk: 'User#<id>' }  // the table has sk", fix: 'Give every entity a sort-key template when the table has a sort key (a literal like "PROFILE" is fine), and none when it has not.' },
  DDB037: { title: '<shard> and shard do not go together', why: 'A <shard> placeholder is filled from the key\'s shard declaration, and a shard declaration is used only through <shard>.', example: "key: { pk: 'Vote#<candidateId>#<shard>', sk: '<voterId>' }  // no shard: { count }", fix: 'Declare shard: { count, by? } on that key, and put <shard> in its partition-key template.' },
  DDB040: { title: 'two entities can build the same key', why: 'Items of different entities with the same key overwrite each other.', example: "User: key { pk: 'U#<id>', sk: 'P' }\nAdmin: key { pk: 'U#<id>', sk: 'P' }", fix: 'Give one of them a literal segment of its own.' },
  DDB041: { title: 'queries of one entity read another\'s items', why: 'A query by partition and sort-key prefix returns every item that matches, whatever its entity.', example: "Article: sk '<updatedAt>'\nComment: sk 'Comment#<id>'  // same partition", fix: 'Start each sort key in a shared partition with a literal of its own.' },
  DDB050: { title: 'index not declared on the table', why: 'An entity can map only into indexes the table declares.', example: "indexes: { byNmae: { pk: 'Name#<name>' } }", fix: 'Use one of the table\'s indexes, or declare it with gsi({ … }) or lsi({ … }).' },
  DDB051: { title: 'index mapping does not fit the index', why: 'A GSI mapping gives a partition key (and a sort key when the index has one); an LSI shares the table\'s partition key.', example: "indexes: { byTitle: { pk: 'T#<name>', sk: '<updatedAt>' } }  // byTitle is an LSI", fix: 'Give pk (and sk) for a GSI, only sk for an LSI.' },
  DDB060: { title: 'version attribute is not an integer number', why: 'Optimistic locking compares and increments the version on every write.', example: "version: 'revision', attributes: { revision: t.string() }", fix: 'Declare it as t.number({ integer: true }) among the attributes.' },
  DDB070: { title: 'pattern names something undeclared', why: 'A pattern becomes a method on an entity\'s repository over one of its access paths.', example: "patterns: { recent: { entity: 'Artcle', sk: 'updatedAt' } }", fix: 'Use a declared entity (and index).' },
  DDB071: { title: 'pattern uses an index the entity does not map into', why: 'Only items written to an index can be queried through it.', example: "patterns: { byName: { entity: 'User', index: 'byName' } }  // User maps no byName", fix: 'Map the entity into the index (entity indexes: { … }), or query another index.' },
  DDB072: { title: 'pattern compares an attribute not in the sort key', why: 'A key condition can compare only the sort key, left to right.', example: "patterns: { recent: { entity: 'Article', sk: 'views', op: 'gte' } }", fix: 'Compare an attribute of the access path\'s sort key.' },
  DDB073: { title: 'operator does not fit the attribute', why: 'beginsWith matches a text prefix; it needs a string attribute.', example: "patterns: { p: { entity: 'Article', sk: 'views', op: 'beginsWith' } }", fix: 'Use another operator, or key a string attribute.' },
  DDB075: { title: 'edge declaration is invalid', why: 'An edge stores two items under its ends\' partitions with labelled sort keys, so it needs declared entities and a table with a sort key.', example: "edges: { Fan: edge({ types: ['User', 'Actr'], forward: 'FAN_OF' }) }", fix: "Declare edge({ types: ['User', 'Actor'], forward: 'FAN_OF', inverse: 'FANNED_BY' }) on a table with a sort key." },
  DDB080: { title: 'traffic number is not valid', why: 'The lint and the plan compute load from these numbers.', example: 'traffic: { writesPerSecond: -5 }', fix: 'Use finite numbers that are not negative; hotKeyShare is a fraction from 0 to 1; leave a number out when unknown.' },
  DDB081: { title: 'unknown option value', why: 'The value is not one ddbgen knows.', example: "capacity: { mode: 'ondemand' }", fix: 'Use one of the values the message lists.' },
  DDB099: { title: 'the generated code does not compile', why: 'ddbgen type-checks its own output before writing it; a failure is a ddbgen bug, never yours.', example: '// any schema that meets the bug', fix: 'Report it with your schema; nothing was written.' },
  DDB170: { title: 'key template has characters that cannot be printed safely', why: 'Key text is printed into generated code and its comments; control characters, comment markers or template-literal syntax there could break or change that code.', example: "key: { pk: 'User*/<id>' }", fix: 'Use printable characters (letters, digits, spaces, punctuation such as # . : | - _ /) without "/*", "*/", "${" or "`".' },
  DDB190: { title: 'hotKeyShare names an unknown key space', why: 'A per-space hotKeyShare applies to one key space: the table key, a GSI the entity maps into, or an edge side.', example: 'traffic: { hotKeyShare: { byNmae: 0.2 } }', fix: 'Name one of the key spaces the message lists, or give one number for the table key (both sides for an edge).' },
  DDB191: { title: 'consistency flag is not a boolean', why: 'Consistent reads and transactional writes cost twice the units; the lint and the plan need to know which.', example: "patterns: { p: { entity: 'User', consistent: 'yes' } }", fix: 'Write true, or leave it out (false).' },
  DDB192: { title: 'strongly consistent read on a GSI', why: 'A GSI serves only eventually consistent reads; DynamoDB rejects ConsistentRead on it.', example: "patterns: { byName: { entity: 'Article', index: 'byName', consistent: true } }", fix: 'Remove consistent: true, or read through the table key or an LSI.' },
  DDB193: { title: 'list maxItems is not a positive integer', why: 'maxItems bounds the list, so the item can be checked against 400 KB.', example: 'attributes: { tags: t.list(t.string(), { maxItems: 0 }) }', fix: 'Give the most elements the list holds as a positive integer.' },
  DDB194: { title: 'GSI capacity on an on-demand table', why: 'Provisioned capacity applies only to a provisioned table; an on-demand index has none to set.', example: "capacity: { mode: 'on-demand' },\nindexes: { byName: gsi({ pk: 'gsi1pk', capacity: { read: 100, write: 100 } }) }", fix: "Give the table capacity: { mode: 'provisioned', read, write }, or remove the GSI's capacity (warmThroughput sets what an on-demand index serves at once)." },
  HK001: { title: 'constant partition key taking writes', why: 'A partition key without a placeholder sends every write to one partition, which takes at most 1,000 WCU/s.', example: "key: { pk: 'Leaderboard', sk: '<score>' },\ntraffic: { writesPerSecond: 3000 }", fix: 'Add a placeholder to the partition key, or shard it: key: { pk: \'Leaderboard#<shard>\', shard: { count: 4 } }.' },
  HK002: { title: 'low-cardinality partition key', why: 'An enum, boolean or attribute with few declared values spreads traffic over only that many partitions.', example: "attributes: { status: t.enum(['OPEN', 'CLOSED']) },\nkey: { pk: 'Status#<status>' }", fix: 'Key on a high-cardinality attribute, or add a shard: { count } to the key.' },
  HK003: { title: 'time-bucket partition key without a shard', why: 'Every write in a period (a minute, hour, day or month) goes to one key: one partition takes the whole write load.', example: "key: { pk: 'Clicks#<at:day>', sk: '<at>' },\ntraffic: { writesPerSecond: 2000 }", fix: "Shard the bucket: key: { pk: 'Clicks#<at:day>#<shard>', shard: { count: N } } with N = ceil(peak WCU / 800)." },
  HK004: { title: 'single item written above 1,000 WCU/s', why: 'One item lives in one partition; no split can spread a single hot item (counters, aggregates).', example: "key: { pk: 'Counter#<name>', sk: 'TOTAL' },\ntraffic: { writesPerSecond: 5000, items: 1 }", fix: 'Split the item into N counter items summed on read, or buffer writes and apply them in batches.' },
  HK005: { title: 'single item read above 3,000 RCU/s', why: 'One item is served by one partition, at most 3,000 strongly consistent reads of 4 KB per second.', example: "key: { pk: 'Config', sk: 'GLOBAL' },\ntraffic: { readsPerSecond: 10000, items: 1 }", fix: 'Cache it, read it eventually consistent, or keep copies under N keys.' },
  HK006: { title: 'hot collection that split-for-heat cannot help', why: 'DynamoDB splits a hot partition between sort-key values; a monotonic sort key writes always at the end, and an LSI forbids splitting an item collection.', example: "key: { pk: 'Device#<id>', sk: '<at>' },\ntraffic: { writesPerSecond: 1500, itemsPerKey: 1e6 }", fix: 'Shard the partition key, or drop the LSI.' },
  HK007: { title: 'declared skew above a partition\'s limit', why: 'hotKeyShare says one key value takes that share of the traffic: it all lands on one partition.', example: 'traffic: { writesPerSecond: 10000, hotKeyShare: 0.3 }', fix: 'Shard the partition key so the hottest value spreads over N keys.' },
  HK008: { title: 'GSI back-pressure', why: 'A GSI that throttles throttles the base table\'s writes; a low-cardinality, time-bucketed or hot GSI partition key does.', example: "indexes: { byStatus: { pk: 'Status#<status>', sk: '<at>' } }", fix: 'Key the GSI on a high-cardinality attribute, shard it, or make it sparse.' },
  HK009: { title: 'GSI write amplification', why: 'Each change to an attribute in a GSI key rewrites the index item (a delete and a put), and every all-projection GSI copies each item.', example: "indexes: { byViews: { pk: 'Views#<views>' } }  // views changes on every read", fix: 'Keep volatile attributes out of index keys; project keys-only or the attributes you read.' },
  HK010: { title: 'LSI item collection may exceed 10 GB', why: 'With an LSI, all items of a partition key value (and their index copies) are capped at 10 GB.', example: "indexes: { byTitle: lsi({ sk: 'lsi1sk' }) },\ntraffic: { itemsPerKey: 1e7, itemBytes: 2000 }", fix: 'Use a GSI instead, or bound the collection (a time bucket in the partition key).' },
  HK011: { title: 'item size', why: 'An item is at most 400 KB, and large items cost a write unit per KB on every write.', example: "attributes: { body: t.string({ maxBytes: 500000 }) }", fix: 'Split large items into an item collection, or keep blobs in S3 and store their keys.' },
  HK012: { title: 'on-demand ramp', why: 'A new on-demand table serves 4,000 write and 12,000 read units at once and doubles every 30 minutes.', example: "capacity: { mode: 'on-demand' },\ntraffic: { writesPerSecond: 20000 }", fix: 'Pre-warm the table and indexes to the peak (WarmThroughput), or ramp traffic up.' },
  HK013: { title: 'table quota', why: 'The default quota is 40,000 read and 40,000 write units per table, its GSIs included.', example: 'traffic: { writesPerSecond: 30000 }  // and two all-projection GSIs', fix: 'Request a quota increase before launch, or spread the load over tables.' },
  HK014: { title: 'transaction contention or limits', why: 'Transactions hold at most 100 items and 4 MB; conditional writes on one hot item conflict and retry.', example: "version: 'revision',\ntraffic: { writesPerSecond: 500, items: 1 }", fix: 'Keep per-writer items and aggregate them, or update with an unconditional ADD.' },
  HK015: { title: 'shard fan-out cost', why: 'A read of a sharded key queries every shard: N shards cost N queries per logical read.', example: "key: { pk: 'Feed#<shard>', shard: { count: 200 } },\ntraffic: { readsPerSecond: 500 }", fix: 'Use fewer shards (N = ceil(peak WCU per key / 800)), a calculated suffix (shard.by), or an aggregate item.' },
  HK016: { title: 'PII in a key', why: 'Keys appear in metrics (Contributor Insights), logs, exports and cursors.', example: "attributes: { email: t.string({ pii: true }) },\nkey: { pk: 'User#<email>' }", fix: 'Key on a surrogate id or a keyed hash, and keep the value in a non-key attribute.' },
  HK017: { title: 'sharded key still too hot', why: 'Sharding divides a key\'s load by the shard count; with too few shards (or a calculated suffix that leaves the hottest value on one shard) a shard still takes more than a partition serves.', example: "key: { pk: 'Vote#<candidateId>#<shard>', sk: '<voterId>', shard: { count: 2 } },\ntraffic: { writesPerSecond: 10000 }", fix: 'Raise the shard count to N = ceil(peak WCU per key / 800), or spread by an attribute that varies within the key (shard.by).' },
  HK018: { title: 'declared peak above provisioned capacity', why: 'On a provisioned table, requests beyond the provisioned units (of the table, and of each GSI separately) are throttled.', example: "capacity: { mode: 'provisioned', read: 100, write: 100 },\ntraffic: { writesPerSecond: 500 }", fix: 'Provision at least the declared peak (with headroom), or use on-demand capacity.' },
};
