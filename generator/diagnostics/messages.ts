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
    fix: 'DynamoDB index names are 3 to 255 characters of a-z, A-Z, 0-9, _, - and . (AWS: "Supported data types and naming rules in Amazon DynamoDB"), and ddbgen names methods after the index (byName → queryByName), so use 3 to 255 letters, digits or _ starting with a letter: e.g. "byName"',
  }),
  DDB024: (entity: string, index: string, method: string, owner: string) => ({
    message: `index "${index}" would give ${entity}Repository a method ${method}, which ${owner === `${entity}Repository` ? 'it already has' : `${owner} already makes`}`,
    fix: `rename the index so its methods (query<Index>, query<Index>All, query<Index>Between, query<Index>AcrossTables, mark<Index>, clear<Index>) are new names, e.g. "by${index.charAt(0).toUpperCase()}${index.slice(1)}"`,
  }),
  DDB030: (placeholder: string, known: readonly string[]) => ({
    message: `placeholder <${placeholder}> names no attribute of this entity`,
    fix: known.length ? `use one of ${list(known)}, or declare "${placeholder}" in attributes` : `declare "${placeholder}" in attributes`,
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
    fix: identity.length ? `hash attributes the key holds: by one of ${list(identity)}, or leave by out to hash the whole key` : 'leave by out, or use random: true',
  }),
  DDB121: (pk: string, inputs: readonly string[]) => ({
    message: inputs.length
      ? `the shard suffix of ${pk} is calculated from ${list(inputs)}, which the partition key already holds: every item of a partition gets the same suffix, so it spreads nothing`
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
  DDB270: (entity: string, attribute: string, storedAs: string, problem: string) => ({
    message: `${entity}.${attribute} is stored as ${JSON.stringify(storedAs)}, which ${problem}`,
    fix: "give storedAs the exact name the table holds the attribute under, used by no other attribute, key attribute or discriminator; storedAs renames an entity's own attributes (not map fields or list elements), and not the version, the ttl attribute or a native GSI's key attributes",
  }),
  DDB271: (entity: string, name: string, problem: string) => ({
    message: `${entity}'s discriminator attribute "${name}" ${problem}`,
    fix: "name attributes the entity does not declare, each with its fixed non-empty string value, e.g. discriminator: { _et: 'User' } (DynamoDB-Toolbox) or { __edb_e__: 'user', __edb_v__: '1' } (ElectroDB)",
  }),
  DDB210: (entity: string) => ({
    message: `entity "${entity}" is new; validation proved its keys cannot collide with the other entities' keys`,
    fix: 'nothing to migrate: deploy the new code',
  }),
  DDB211: (entity: string) => ({
    message: `entity "${entity}" was removed; its stored items stay in the table, and no code reads or deletes them`,
    fix: `delete its items first (db.scanSegments, or a TTL), then acknowledge: migrations: [{ change: 'entities.${entity}' }]`,
  }),
  DDB212: (entity: string, attribute: string, required: boolean) => ({
    message: required
      ? `required attribute ${entity}.${attribute} is new; items stored before have no value, and reading them gives items without it`
      : `optional attribute ${entity}.${attribute} is new; items stored before simply do not have it`,
    fix: required ? `declare it .optional(), or write a value into every stored ${entity} item before the new code reads them` : 'nothing to migrate',
  }),
  DDB213: (entity: string, attribute: string) => ({
    message: `attribute ${entity}.${attribute} was removed; stored items keep their values, which no code reads any more`,
    fix: `keep it declared as .optional() while the data matters, or acknowledge: migrations: [{ change: 'entities.${entity}.attributes.${attribute}' }]`,
  }),
  DDB214: (entity: string, attribute: string, change: string, narrowed: boolean) => ({
    message: `attribute ${entity}.${attribute} ${change}${narrowed ? ': stored values may no longer fit the declaration' : ': every stored value still fits'}`,
    fix: narrowed ? 'widen the declaration again, or check the stored items and acknowledge the change in migrations' : 'nothing to migrate',
  }),
  DDB215: (entity: string, part: string, change: string, edges: readonly string[] = []) => ({
    message: `${entity}'s ${part} ${change}: every stored ${entity} item must be written under its new key and its old key deleted${edges.length ? `, and the items of edge${edges.length === 1 ? '' : 's'} ${list(edges)} in its partitions move with it` : ''}`,
    fix: `generate and run the migration (ddbgen diff OLD NEW --emit-migration DIR), then acknowledge: migrations: [{ change: 'entities.${entity}.key' }]`,
  }),
  DDB216: (entity: string, index: string, change: string, removed: boolean) => ({
    message: removed
      ? `${entity} no longer maps into index "${index}": its stored items keep their index attributes and stay in the index`
      : `${entity}'s mapping into index "${index}" ${change}: items stored before carry no (or old) index attributes until a backfill writes them`,
    fix: removed
      ? `remove the index attributes from stored ${entity} items, then acknowledge: migrations: [{ change: 'entities.${entity}.indexes.${index}' }]`
      : `generate and run the backfill (ddbgen diff OLD NEW --emit-migration DIR), then acknowledge: migrations: [{ change: 'entities.${entity}.indexes.${index}' }]`,
  }),
  DDB217: (index: string, change: 'added' | 'removed' | 'replaced', detail: string) => ({
    message:
      change === 'added'
        ? `GSI "${index}" is new; DynamoDB fills it from the attributes already stored (one GSI creation)`
        : change === 'removed'
          ? `GSI "${index}" was removed; DynamoDB deletes it and queries on it stop working`
          : `GSI "${index}" ${detail}; DynamoDB cannot change that in place: the index is deleted, then created again (two stack updates), and queries on it fail in between`,
    fix:
      change === 'added'
        ? 'nothing to migrate; deploy the table before the code that queries the index'
        : change === 'removed'
          ? `deploy code that no longer queries it first, then acknowledge: migrations: [{ change: 'indexes.${index}' }]`
          : `add a new GSI under another name instead, move the code to it, then remove the old one; or acknowledge: migrations: [{ change: 'indexes.${index}' }]`,
  }),
  DDB218: (index: string, change: string) => ({
    message: `LSI "${index}" ${change}; local secondary indexes exist only from table creation`,
    fix: `create a new table with the new definition and copy the items into it, or use a GSI; then acknowledge: migrations: [{ change: 'indexes.${index}' }]`,
  }),
  DDB219: (what: string, change: string) => ({
    message: `the table's ${what} ${change}; DynamoDB cannot change that on an existing table`,
    fix: 'create a new table with the new definition and copy every item into it (a migration per entity), then switch the code over',
  }),
  DDB220: (from: string, to: string) => ({
    message: `the delimiter changed from ${JSON.stringify(from)} to ${JSON.stringify(to)}: every stored key (every entity, index mapping and edge) must be rewritten`,
    fix: "generate and run the migration (ddbgen diff OLD NEW --emit-migration DIR), then acknowledge: migrations: [{ change: 'delimiter' }]",
  }),
  DDB221: (count: number, steps: readonly string[]) => ({
    message: `${count} GSI creations and deletions in one change; CloudFormation performs one per stack update, so deploy in ${steps.length} steps: ${steps.map((s, i) => `${i + 1}. ${s}`).join('; ')}`,
    fix: 'deploy the steps in this order, each as its own stack update, waiting for each index to become ACTIVE before the next',
  }),
  DDB222: (pattern: string, change: string) => ({
    message: `access pattern "${pattern}" ${change}; patterns generate methods, not stored data`,
    fix: 'nothing to migrate; update the code that calls the pattern',
  }),
  DDB223: (edge: string, change: string, rewrite: 'none' | 'migration' | 'by hand', why = '') => ({
    message: `edge "${edge}" ${change}${rewrite === 'none' ? '' : ': stored edge items are keyed by the old labels, node keys and delimiter and must be rewritten'}${rewrite === 'by hand' ? `; the generated migration cannot move them (${why})` : ''}`,
    fix:
      rewrite === 'migration'
        ? `generate and run the migration (ddbgen diff OLD NEW --emit-migration DIR: it moves both halves of every stored edge), then acknowledge: migrations: [{ change: 'edges.${edge}' }]`
        : rewrite === 'by hand'
          ? `remove each relationship with the old code and add it again with the new, then acknowledge: migrations: [{ change: 'edges.${edge}' }]`
          : 'nothing to migrate',
  }),
  DDB224: (entity: string, change: string, backfill: boolean) => ({
    message: `${entity}'s version attribute ${change}${backfill ? ': items stored before carry no version, so writes that expect one fail' : ''}`,
    fix: backfill ? `write the version (e.g. 1) into every stored ${entity} item, then acknowledge: migrations: [{ change: 'entities.${entity}.version' }]` : 'nothing to migrate',
  }),
  DDB225: (what: string) => ({
    message: `${what} changed; this changes code, capacity or lint findings, not stored data`,
    fix: 'nothing to migrate',
  }),
  DDB226: (field: string) => ({
    message: `${field} changed, and this ddbgen does not know what that change means for stored items`,
    fix: `check what the change does to the items in the table, then acknowledge: migrations: [{ change: '${field}' }]`,
  }),
  DDB227: (table: string, added: boolean) => ({
    message: added ? `table "${table}" is new` : `table "${table}" was removed from the schema; the physical table and its items stay until deleted`,
    fix: added
      ? 'nothing to migrate; create the table before deploying code that uses it'
      : `delete the physical table when its data is no longer needed, or put the table back in the schema; when it was renamed (its items copied to the new table), acknowledge on the new table: migrations: [{ change: 'tables.${table}' }]`,
  }),
  DDB228: (change: string) => ({
    message: `migrations acknowledges "${change}", which names no change in this diff`,
    fix: 'remove the entry once the migration has shipped, or correct its path to one printed by ddbgen diff',
  }),
  DDB229: (file: string, ref: string, reason: string) => ({
    message: `cannot read ${file} at git ref ${ref}: ${reason}`,
    fix: 'give a ref that has the schema (a branch, tag or commit: git log --oneline -- FILE lists them), or compare two files: ddbgen diff OLD NEW',
  }),
  DDB230: (entity: string, parts: readonly string[], from: number, to: number) => ({
    message: `${entity}'s keys hold ${list(parts)}, integer${parts.length === 1 ? '' : 's'} whose range does not start at 0: key codec v${from} stored ${parts.length === 1 ? 'it' : 'them'} as the offset from min (id 1 of 1..1e9 as 000000000), codec v${to} as the value itself (0000000001), so every stored ${entity} item must be written under its new key and its old key deleted`,
    fix: `generate and run the migration (ddbgen diff OLD NEW --old-codec ${from} --emit-migration DIR: it reads the old keys with codec v${from} and writes codec v${to}), then acknowledge: migrations: [{ change: 'entities.${entity}.key' }]`,
  }),
  DDB231: (entity: string, index: string, parts: readonly string[], from: number, to: number) => ({
    message: `${entity}'s mapping into index "${index}" holds ${list(parts)}, integer${parts.length === 1 ? '' : 's'} whose range does not start at 0, which key codec v${from} wrote as the offset from min and v${to} writes as the value: the index attributes of stored ${entity} items must be rewritten`,
    fix: `generate and run the backfill (ddbgen diff OLD NEW --old-codec ${from} --emit-migration DIR), then acknowledge: migrations: [{ change: 'entities.${entity}.indexes.${index}' }]`,
  }),
  DDB232: (edge: string, types: readonly string[], from: number, to: number) => ({
    message: `edge "${edge}" connects ${list(types)}, whose ids are integers key codec v${from} wrote as the offset from min and v${to} writes as the value: its stored items are keyed by the old form and must be rewritten`,
    fix: `generate and run the migration (ddbgen diff OLD NEW --old-codec ${from} --emit-migration DIR: it reads each edge item's node ids with codec v${from} and moves both halves of the edge to codec v${to} keys), then acknowledge: migrations: [{ change: 'edges.${edge}' }]`,
  }),
  DDB233: (entity: string, index: string, change: 'new' | 'changed' | 'removed', copies: readonly string[]) => ({
    message:
      change === 'removed'
        ? `${entity} no longer maps into native index "${index}": its stored items keep the attributes the index is keyed by, so they stay in the index`
        : copies.length
          ? `${entity}'s mapping into native index "${index}" is ${change} and writes ${list(copies)} as ${copies.length === 1 ? 'a renamed copy' : 'renamed copies'}: items stored before carry no copy, so they are missing from the index until a backfill writes them`
          : `${entity}'s mapping into native index "${index}" is ${change}; the index is keyed by attributes the items already store under those names, so DynamoDB indexes the stored items itself: nothing to backfill`,
    fix:
      change === 'removed'
        ? `remove the key attributes from stored ${entity} items if they must leave the index, then acknowledge: migrations: [{ change: 'entities.${entity}.nativeIndexes.${index}' }]`
        : copies.length
          ? `generate and run the backfill (ddbgen diff OLD NEW --emit-migration DIR), then acknowledge: migrations: [{ change: 'entities.${entity}.nativeIndexes.${index}' }]`
          : 'nothing to migrate',
  }),
  DDB234: (entity: string, change: string, dropped: boolean) => ({
    message: `${entity}'s discriminator ${change}: stored items carry the old values${dropped ? ', which the new code no longer writes or reads' : ', and reads skip an item whose values differ'}`,
    fix: `generate and run the migration (ddbgen diff OLD NEW --emit-migration DIR: it ${dropped ? 'removes the old values from' : 'writes the new discriminator into'} every ${entity} item), then acknowledge: migrations: [{ change: 'entities.${entity}.discriminator' }]`,
  }),
  DDB235: (entity: string, attribute: string, change: string) => ({
    message: `${entity}.${attribute} is stored differently (${change}): the stored items hold it in the old form`,
    fix: `generate and run the migration (ddbgen diff OLD NEW --emit-migration DIR: it reads each ${entity} item in the old form and writes the attribute in the new one), then acknowledge: migrations: [{ change: 'entities.${entity}.attributes.${attribute}' }]`,
  }),
  DDB240: (index: string, part: 'partition' | 'sort', found: string) => ({
    message: `the ${part} key of native GSI "${index}" ${found}; DynamoDB keys a GSI by 1 to 4 partition-key attributes and 0 to 4 sort-key attributes, each named once`,
    fix: `name at most 4 distinct attributes in ${part === 'partition' ? 'pk' : 'sk'}, e.g. gsi({ pk: ['tenantId', 'region'], sk: ['status', 'createdAt'] }); key on the attributes queries fix first, and leave the rest to a filter or a second index`,
  }),
  DDB241: (entity: string, attribute: string, kind: string, key: string, index: string) => ({
    message: `${entity} maps "${attribute}", a ${kind} attribute, into key attribute "${key}" of native GSI "${index}"; a key attribute holds one string, number or binary value`,
    fix: `map a string, enum, timestamp, number or binary attribute into "${key}" (rename: indexes: { ${index}: { attributes: { ${key}: '<attribute>' } } }), or keep ${entity} out of "${index}"`,
  }),
  DDB242: (entity: string, attribute: string, key: string, index: string, known: readonly string[]) => ({
    message: `${entity} has no attribute "${attribute}" for key attribute "${key}" of native GSI "${index}"`,
    fix: `declare "${attribute}" in ${entity}'s attributes, or map one of ${entity}'s own attributes into it: indexes: { ${index}: { attributes: { ${key}: ${known.length ? known.slice(0, 3).map((k) => `'${k}'`).join(' | ') : "'<attribute>'"} } } }`,
  }),
  DDB243: (entity: string, name: string, index: string, keys: readonly string[]) => ({
    message: `${entity}'s mapping for native GSI "${index}" renames "${name}", which is not one of its key attributes (${list(keys)})`,
    fix: `rename only key attributes of "${index}": attributes: { <key attribute>: '<${entity} attribute>' }, or remove "${name}"`,
  }),
  DDB244: (key: string, index: string, uses: string) => ({
    message: `key attribute "${key}" of native GSI "${index}" is stored with different types (${uses}); DynamoDB keeps one type per key attribute and refuses a write of the other type`,
    fix: `give "${key}" one type in every entity that stores an attribute of that name (all strings, enums and timestamps are stored as S, numbers as N, binary as B), or rename one of them`,
  }),
  DDB245: (entity: string, index: string, fields: readonly string[]) => ({
    message: `${entity}'s mapping for native GSI "${index}" gives ${fields.join(', ')}, but a native index is keyed by the attributes themselves: no template is built and no shard suffix can be added`,
    fix: fields.includes('shard')
      ? `a shard suffix needs a synthetic key: declare "${index}" as gsi({ pk: 'gsi1pk', sk: 'gsi1sk' }) and map a template with shard: { count }, or remove shard`
      : `remove ${fields.join(' and ')}; map attributes by name, or rename them: indexes: { ${index}: { attributes: { <key attribute>: '<${entity} attribute>' } } }`,
  }),
  DDB246: (key: string, index: string, other: string) => ({
    message: `key attribute "${key}" of native GSI "${index}" is also ${other}, which ddbgen writes as a key string`,
    fix: `name the native key attribute after the item attribute it holds (e.g. "tenantId"), not after a synthetic key attribute`,
  }),
  DDB247: (entity: string, key: string, source: string, index: string) => ({
    message: `${entity} maps "${source}" into key attribute "${key}" of native GSI "${index}", but ${entity} also declares its own attribute "${key}": the copy would overwrite it`,
    fix: `map ${entity}'s "${key}" itself (leave "${key}" out of attributes: { … }), or rename ${entity}'s own "${key}"`,
  }),
  DDB248: (pattern: string, index: string) => ({
    message: `pattern "${pattern}" uses native GSI "${index}"; declared patterns read synthetic keys`,
    fix: `query a native index with the generated query${index.charAt(0).toUpperCase()}${index.slice(1)}(partition, { where }) (a left-to-right sort condition), or point the pattern at a synthetic index`,
  }),
  DDB250: (found: string, timestamps: readonly string[]) => ({
    message: found,
    fix: timestamps.length
      ? `name the timestamp attribute that holds each item's expiry, e.g. ttl: '${timestamps[0]}' (the entities' timestamps: ${list(timestamps)})`
      : "declare the expiry on the entities that expire, e.g. expiresAt: t.timestamp(), and name it: ttl: 'expiresAt'",
  }),
  DDB251: (entity: string, attribute: string, kind: string) => ({
    message: `ttl attribute "${attribute}" is a ${kind} attribute of ${entity}; DynamoDB's time to live reads an expiry instant`,
    fix: `declare it as ${attribute}: t.timestamp() on ${entity} (stored as epoch seconds, read back as a Date), or rename ${entity}'s attribute if it means something else`,
  }),
  DDB252: (found: string) => ({
    message: `pointInTimeRecovery.days is ${found}`,
    fix: 'give the recovery period as a whole number of days from 1 to 35 (RecoveryPeriodInDays; 35 when left out)',
  }),
  DDB253: (field: string, found: string) => ({
    message: `${field} is ${found}`,
    fix: 'give a whole number of units per second above 0, or leave the setting out',
  }),
  DDB254: (found: string) => ({
    message: found,
    fix: "onDemandMax caps an on-demand table: give capacity: { mode: 'on-demand' } and at least one of onDemandMax: { readRequestUnits, writeRequestUnits }, or remove onDemandMax",
  }),
  DDB255: (key: string, found: string) => ({
    message: `tag key ${JSON.stringify(key)} ${found}`,
    fix: 'a tag key is 1 to 128 characters of letters, digits, white space and + - = . _ : /, not starting with "aws:" (reserved for AWS), e.g. "team" or "cost-center"',
  }),
  DDB256: (key: string, found: string) => ({
    message: `tag ${JSON.stringify(key)} has a value that ${found}`,
    fix: 'a tag value is a string of at most 256 letters, digits, white space and + - = . _ : /',
  }),
  DDB257: (count: number) => ({
    message: `tags declares ${count} tags; a DynamoDB table holds at most 50`,
    fix: `remove ${count - 50} tag${count - 50 === 1 ? '' : 's'}, or combine related ones into one value (e.g. "owner": "team-a/alice")`,
  }),
  DDB258: (field: string, found: string, want: string) => ({
    message: `${field} is ${found}, not ${want}`,
    fix: `write ${field}: ${want === 'true or false' ? 'true' : want}, or leave it out`,
  }),
  DDB260: (found: unknown, allowed: readonly string[]) => ({
    message: `stream ${JSON.stringify(found) ?? String(found)} is not a stream view type`,
    fix: `use stream: ${allowed.map((v) => `'${v}'`).join(', ')} (what each record carries: both images, the new item, the old item, or only its key), or leave it out for a table without a stream`,
  }),
  DDB261: (before: string | undefined, after: string | undefined) => ({
    message:
      before === undefined
        ? `the table's stream is new (${after}): DynamoDB starts recording changes from the deploy on`
        : after === undefined
          ? `the table's stream (${before}) was removed: its consumers stop receiving changes, and its records stay readable for 24 hours only`
          : `the table's stream view type changed from ${before} to ${after}: DynamoDB disables the stream and enables a new one, with a new stream ARN`,
    fix:
      before === undefined
        ? "deploy the table, then point consumers (a Lambda event source mapping) at the table's LatestStreamArn"
        : after === undefined
          ? 'move or retire the consumers first, then acknowledge: migrations: [{ change: \'stream\' }]'
          : "point consumers at the new LatestStreamArn after the deploy (changes made in between are only in the new stream), regenerate the handlers for the new view type, then acknowledge: migrations: [{ change: 'stream' }]",
  }),
  // ddbgen pull: what stops it (each says what was read so far, printed beside it)
  DDB300: (problem: string, fix: string) => ({ message: problem, fix }),
  DDB301: (problem: string, fix: string) => ({ message: problem, fix }),
  DDB302: (sampled: number, reasons: string) => ({
    message: `no entity fits the ${sampled} sampled item(s): ${reasons}`,
    fix: 'read the reasons above: name the attribute that tells entities apart with --discriminator, or sample more items (--sample N) so a key shape is seen on several items',
  }),
  // ddbgen pull: warnings (what the schema leaves out; the text comes from pullWarnings)
  DDB304: (warning: string) => ({ message: warning, fix: 'map the index by hand in the entities whose items belong in it (a sparse mapping reads an optional attribute), or fix the items' }),
  DDB305: (warning: string) => ({ message: warning, fix: 'query the LSI with the AWS SDK, or move to a GSI ddbgen maps' }),
  DDB306: (warning: string) => ({ message: warning, fix: 'fix the listed items, or write the entity by hand with a literal of its own in its keys' }),
  DDB307: (warning: string) => ({ message: warning, fix: 'rewrite the listed items\' keys as the schema writes them, or widen the schema by hand (a keyFormat on the attribute whose part differs)' }),
  DDB310: (problem: string, fix: string) => ({ message: `the observed-traffic file cannot be read: ${problem}`, fix }),
  DDB311: (file: string, what: string) => ({
    message: `${file} holds no traffic ddbgen can use: ${what}`,
    fix: "give the EMF lines ddbgen's EmfWriter flushed, an OTLP JSON metrics export of ddbgen's metrics (ddbgen.operations, ddbgen.consumed_capacity.*), or a Contributor Insights GetInsightRuleReport answer (aws cloudwatch get-insight-rule-report --output json)",
  }),
  DDB312: (file: string, name: string, known: string) => ({
    message: `${file} reports traffic of ${name}, which the schema does not declare: its numbers are left out`,
    fix: `lint against the schema the traffic came from, or rename it to one of ${known}`,
  }),
  DDB303: (problems: readonly string[]) => ({
    message: `the inferred schema does not validate, so nothing was written: ${problems.join('; ')}`,
    fix: 'pull with --discriminator, or a larger --sample; or write the reported entities by hand',
  }),
} satisfies Record<string, (...args: never[]) => { message: string; fix: string }>;

/** A warning of `ddbgen pull`: what the pulled schema leaves out that the table holds, shown first in its summary. */
export interface PullWarning {
  readonly code: 'DDB304' | 'DDB305' | 'DDB306' | 'DDB307';
  readonly message: string;
}

export const pullWarnings = {
  indexLeftOut: (index: string, entity: string, why: string): PullWarning => ({
    code: 'DDB304',
    message: `index ${index} is left out of ${entity}: ${why}; items ddbgen writes for ${entity} are then not in ${index}, and the table's other writers and readers of ${index} do not see them (map it by hand if they should)`,
  }),
  lsiLeftOut: (index: string, attribute: string): PullWarning => ({
    code: 'DDB305',
    message: `LSI ${index} is left out of the schema: it is keyed by the items' own attribute ${attribute}, and ddbgen's LSIs hold a built sort key; queries on it are yours to write`,
  }),
  entityDropped: (entity: string, shape: string, items: number, why: string): PullWarning => ({
    code: 'DDB306',
    message: `entity ${entity} (keys "${shape}", ${items.toLocaleString('en-US')} item${items === 1 ? '' : 's'}) is left out: ${why}; its items are listed as fitting no entity`,
  }),
  keysNotWritten: (entity: string, items: number, of: number, first: string): PullWarning => ({
    code: 'DDB307',
    message: `ddbgen's codec does not write the stored keys of ${items.toLocaleString('en-US')} of ${of.toLocaleString('en-US')} ${entity} items as they are (${first}): the generated code reads and writes those items under other keys; they are listed as outliers`,
  }),
};

/** The hot-key lint's messages (rule ids are binding, DESIGN.md §5). Numbers come formatted. */
/** The lint's findings on observed traffic (`ddbgen lint --observed`): in the catalogue beside the rules' codes, but no rule a schema's lint settings can name. */
export const OBSERVED_CODES: ReadonlySet<string> = new Set(['HK101', 'HK102', 'HK103']);

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
  HK019: (where: string, reader: string, readerSk: string, other: string, otherSk: string, cost: string) => ({
    message: `${where}: queries on ${reader} (sort key "${readerSk}") also read the ${other} items of the same partition (sort key "${otherSk}" falls in their range): they are not returned, but DynamoDB reads and bills them: ${cost}`,
    fix: `start ${reader}'s sort key with a literal of its own (e.g. "${reader}#…") so its queries read only its items, or keep its queries to a range (where) that ${other}'s keys sort outside of`,
  }),
  HK020: (where: string, key: string, problem: string, load: string, index: string, template: string, count: number) => ({
    message: `${where}: native key (${key}) ${problem}; ${load}; a shard suffix cannot live in a native key`,
    fix: `keep this index synthetic so it can be sharded: ${index}: gsi({ pk: 'gsi1pk', sk: 'gsi1sk' }) with the mapping { pk: '${template}', shard: { count: ${count} } } (N = ceil(peak WCU on one key / (1,000 × 0.8)), at least 2); or key the native index on a finer attribute`,
  }),
  HK021: (where: string, template: string, attributes: string, index: string, native: string) => ({
    message: `${where}: the synthetic key ${template} is a plain concatenation of whole attributes the items already store (${attributes}), so a native index could hold it with no key strings and no backfill`,
    fix: `add a native index beside it, e.g. ${index}Native: gsi(${native}), and map the entity into it by name (DynamoDB fills it from the stored attributes: no backfill); move queries to query${index.charAt(0).toUpperCase()}${index.slice(1)}Native, then remove ${index}. Keep ${index} synthetic if it will need a shard`,
  }),
  HK022: (where: string, found: string, raise: string) => ({
    message: `${where}: ${found}; requests beyond it throttle with ThrottlingException`,
    fix: `raise onDemandMax to { ${raise} } (the peak / 0.8), or remove the maximum`,
  }),
  HK023: (where: string, problem: string, fix: string) => ({ message: `${where}: ${problem}`, fix }),
  HK024: (where: string, problem: string, fix: string) => ({ message: `${where}: ${problem}`, fix }),
  HK025: (where: string, problem: string, fix: string) => ({ message: `${where}: ${problem}`, fix }),
  HK026: (where: string, problem: string, fix: string) => ({ message: `${where}: ${problem}`, fix }),
  HK101: (where: string, arithmetic: string, fix: string) => ({ message: `${where}: observed ${arithmetic}`, fix }),
  HK102: (where: string, arithmetic: string, fix: string) => ({ message: `${where}: observed ${arithmetic}`, fix }),
  HK103: (where: string, arithmetic: string, fix: string) => ({ message: `${where}: observed ${arithmetic}`, fix }),
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
  DDB023: { title: 'index name is not valid', why: 'DynamoDB index names are 3 to 255 characters of a-z, A-Z, 0-9, _, - and . (AWS: "Supported data types and naming rules in Amazon DynamoDB", https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.NamingRulesDataTypes.html), and ddbgen names methods after the index (byName → queryByName), so it also needs an identifier.', example: "indexes: { x: gsi({ pk: 'gsi1pk' }) }", fix: 'Use 3 to 255 letters, digits or _, starting with a letter, e.g. "byName".' },
  DDB024: { title: 'index name makes a method the repository already has', why: 'ddbgen names each index\'s methods after it: index byName gives queryByName, queryByNameAll, queryByNameBetween, queryByNameAcrossTables, markByName and clearByName. An index named All, Between or AcrossTables would give queryAll, queryBetween or queryAcrossTables, which the table\'s own query already has.', example: "indexes: { All: gsi({ pk: 'gsi1pk', sk: 'gsi1sk' }) }", fix: 'Rename the index, e.g. "byAll" or a name that says what it is keyed by.' },
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
  DDB090: { title: 'the generated output is stale', why: 'The repositories the app imports were generated from an earlier version of the schema: until they are generated again, the app reads and writes the items as the old schema described them. `ddbgen generate --check` exits 1 on it (in CI), and the editor reports it on the saved schema.', example: "// schema.ts saved with a new attribute, out/app/ generated before it\nattributes: { id: t.string(), nickname: t.string() }", fix: 'Run the generator (`npx ddbgen generate`, or the quick fix in the editor), and commit the output with the schema if the output is committed.' },
  DDB099: { title: 'the generated code does not compile', why: 'ddbgen type-checks its own output before writing it; a failure is a ddbgen bug, never yours.', example: '// any schema that meets the bug', fix: 'Report it with your schema; nothing was written.' },
  DDB100: { title: 'a name is a reserved word', why: 'Entity, edge and table names become TypeScript classes, types and members; a reserved word there does not compile.', example: "entities: { class: entity({ … }) }", fix: 'Rename it, e.g. "ClassItem".' },
  DDB101: { title: 'a name clashes with a global or a runtime helper', why: 'The generated modules use JavaScript globals (Promise, Date, …) and import ddbgen runtime helpers by name; declaring one of those names hides it and the output does not compile.', example: "entities: { Promise: entity({ … }) }", fix: 'Rename it so it does not produce that name, e.g. "PromiseRecord".' },
  DDB102: { title: 'two names produce the same generated name', why: 'Names that differ only in case share a file on case-insensitive disks and a member of the table class, and a name plus a suffix (Order, OrderKey) shares generated type names; one would replace the other.', example: "entities: { User: entity({ … }), user: entity({ … }) }", fix: 'Rename one of them.' },
  DDB103: { title: 'an entity has no key', why: 'Every item is stored under its primary key; without a key template there is nothing to build it from.', example: "User: { kind: 'entity', attributes: { id: t.string() } }  // not made by entity({ key })", fix: "Declare it with entity({ attributes, key: { pk: 'User#<id>', sk: 'PROFILE' } })." },
  DDB104: { title: 'more than 5 local secondary indexes', why: 'DynamoDB allows at most 5 LSIs per table, a fixed limit; CreateTable would fail.', example: 'indexes: { a: lsi(…), b: lsi(…), c: lsi(…), d: lsi(…), e: lsi(…), f: lsi(…) }', fix: 'Keep at most 5 LSIs: turn the others into GSIs, or serve those queries from a sort-key prefix of the table.' },
  DDB105: { title: 'more GSIs than the quota', why: 'DynamoDB allows 20 GSIs per table by default (an adjustable quota); CreateTable fails above it.', example: '21 gsi(…) declarations in indexes', fix: 'Merge indexes (overloaded GSI keys serve several patterns), or declare a raised quota with gsiQuota once AWS has granted it.' },
  DDB106: { title: 'literal key text alone exceeds the key limit', why: 'DynamoDB limits partition keys to 2,048 and sort keys to 1,024 bytes (UTF-8); a template whose literal text is already longer fails on every write.', example: "key: { pk: 'User#<id>', sk: 'X'.repeat(1100) }", fix: 'Shorten the literal text; keys are for identity and order, not for data.' },
  DDB107: { title: 'gsiQuota is not valid', why: 'gsiQuota declares the GSI quota AWS has raised for the account; it must be a whole number above the default 20 (21 or more): 20 is the default and needs no declaration.', example: 'gsiQuota: 10', fix: 'Give the raised quota as a whole number above 20, or leave it out.' },
  DDB108: { title: 'rotation period is not known', why: 'Rotated tables are named after their period; ddbgen rotates by day, ISO week, month or year.', example: "rotation: 'fortnight'", fix: "Use rotation: 'day', 'week', 'month' or 'year', or leave it out for one table." },
  DDB109: { title: 'table name is not 3 to 255 characters', why: 'DynamoDB table names are 3 to 255 characters of a-z, A-Z, 0-9, _, - and . (AWS: "Supported data types and naming rules in Amazon DynamoDB", https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.NamingRulesDataTypes.html); the table name is the default physical name, so CreateTable would reject a shorter or longer one.', example: "defineTable({ name: 'T', entities: { … } })", fix: 'Use a name of 3 to 255 characters (letters, digits and _, starting with a letter), e.g. "Shop".' },
  DDB110: { title: 'rotated table names exceed 255 characters', why: 'A rotated table is stored as one physical table per period, named <name>_YYYY-MM-DD (day), <name>_YYYY-Www (week), <name>_YYYY-MM (month) or <name>_YYYY (year); DynamoDB table names are at most 255 characters (AWS: "Supported data types and naming rules in Amazon DynamoDB"), so the longest of these must fit.', example: "defineTable({ name: 'A'.repeat(250), rotation: 'day', entities: { … } })", fix: 'Shorten the table name by the length of the rotation suffix (11 characters for day, 9 for week, 8 for month, 5 for year).' },
  DDB120: { title: 'shard.by names an attribute outside the key', why: 'A suffix hashed from a value the key does not hold changes while the key stays the same: one item could be written twice and read from the wrong shard.', example: "key: { pk: 'Event#<day>#<shard>', sk: '<eventId>', shard: { count: 8, by: 'userId' } }", fix: 'Hash attributes the key holds (by one of its placeholders), or leave by out to hash the whole key.' },
  DDB121: { title: 'the shard suffix spreads nothing', why: 'A suffix calculated only from values the partition key already holds is the same for every item of a partition, so all of its writes still go to one key.', example: "key: { pk: 'Total#<candidateId>#<shard>', sk: 'TOTAL', shard: { count: 20 } }", fix: 'Calculate it from a finer attribute of the key (shard: { count, by }), or draw it per write with shard: { count, random: true } and read with getAll, sum or a gathered query.' },
  DDB122: { title: 'a shard is both random and calculated', why: 'A random suffix is drawn per write; a calculated one is hashed from by. It cannot be both.', example: "shard: { count: 10, random: true, by: 'voterId' }", fix: 'Remove by for a random suffix, or random: true for a calculated one.' },
  DDB123: { title: 'shard count or start is not valid', why: 'Suffixes run start..start+count-1; both must be whole numbers, with at least 2 shards.', example: 'shard: { count: 1 }', fix: 'Use a whole count of 2 or more and a whole start of 0 or more.' },
  DDB124: { title: 'a unit on a non-timestamp', why: 'Only timestamps are truncated to a unit on write.', example: "attributes: { score: t.number({ unit: 'day' } as never) }", fix: "Put the unit on t.timestamp({ unit }); units are 'second', 'minute', 'hour', 'day' and 'month'." },
  DDB125: { title: 'one item per time bucket keeps one timestamp', why: 'A primary key that holds a timestamp only truncated (<at:hour>) keeps one item per bucket, so the attribute keeps the time of whichever write came last: usually meant as the bucket start.', example: "attributes: { at: t.timestamp() },\nkey: { pk: 'Clicks#<page>', sk: '<at:hour>' }", fix: "Declare the precision meant, at: t.timestamp({ unit: 'hour' }), or add a finer part to the sort key to keep one item per event." },
  DDB140: { title: 'an edge node type is not an entity', why: 'An edge joins entities: a node key is built by the entity\'s own partition-key template, so its edges live in the same partition as the entity.', example: "edges: { Fan: edge({ types: ['User', 'Movie'], forward: 'FAN_OF' }) }  // no Movie entity", fix: 'Declare the entity, keyed by its own id, or connect declared entities only.' },
  DDB141: { title: 'an entity\'s partition key cannot be a node key', why: 'A node is one partition that holds the entity and its edges: a constant, sharded or time-truncated partition key, or one whose partition holds many items of the entity, cannot name one node.', example: "Post: key { pk: 'User#<userId>', sk: 'Post#<postId>' }\nedges: { Likes: edge({ types: ['User', 'Post'], … }) }", fix: "Key the entity by its own id, e.g. key: { pk: 'Post#<id>', sk: 'PROFILE' }." },
  DDB142: { title: 'two node types can have the same node key', why: 'Edges of two node types whose partition keys can be equal would mix in one partition and come back under the wrong type.', example: "User: pk 'User#<id>'  Settings: pk 'User#<userId>'  // both node types of one edge", fix: 'Give one of them a partition key of its own, or connect only one of them.' },
  DDB160: { title: 'attribute name that reaches the object prototype', why: 'Plain objects and JSON input treat __proto__, constructor and prototype specially: a value under such a name can change what every object inherits, or be silently lost. Every object also inherits toString, valueOf, hasOwnProperty, isPrototypeOf, propertyIsEnumerable, toLocaleString and the __define/__lookup accessors: an item without its own value under such a name would still answer with a function.', example: "attributes: { constructor: t.string() }", fix: 'Rename the attribute or map field, e.g. "constructorName".' },
  DDB170: { title: 'key template has characters that cannot be printed safely', why: 'Key text is printed into generated code and its comments; control characters, comment markers or template-literal syntax there could break or change that code.', example: "key: { pk: 'User*/<id>' }", fix: 'Use printable characters (letters, digits, spaces, punctuation such as # . : | - _ /) without "/*", "*/", "${" or "`".' },
  DDB190: { title: 'hotKeyShare names an unknown key space', why: 'A per-space hotKeyShare applies to one key space: the table key, a GSI the entity maps into, or an edge side.', example: 'traffic: { hotKeyShare: { byNmae: 0.2 } }', fix: 'Name one of the key spaces the message lists, or give one number for the table key (both sides for an edge).' },
  DDB191: { title: 'consistency flag is not a boolean', why: 'Consistent reads and transactional writes cost twice the units; the lint and the plan need to know which.', example: "patterns: { p: { entity: 'User', consistent: 'yes' } }", fix: 'Write true, or leave it out (false).' },
  DDB192: { title: 'strongly consistent read on a GSI', why: 'A GSI serves only eventually consistent reads; DynamoDB rejects ConsistentRead on it.', example: "patterns: { byName: { entity: 'Article', index: 'byName', consistent: true } }", fix: 'Remove consistent: true, or read through the table key or an LSI.' },
  DDB193: { title: 'list maxItems is not a positive integer', why: 'maxItems bounds the list, so the item can be checked against 400 KB.', example: 'attributes: { tags: t.list(t.string(), { maxItems: 0 }) }', fix: 'Give the most elements the list holds as a positive integer.' },
  DDB194: { title: 'GSI capacity on an on-demand table', why: 'Provisioned capacity applies only to a provisioned table; an on-demand index has none to set.', example: "capacity: { mode: 'on-demand' },\nindexes: { byName: gsi({ pk: 'gsi1pk', capacity: { read: 100, write: 100 } }) }", fix: "Give the table capacity: { mode: 'provisioned', read, write }, or remove the GSI's capacity (warmThroughput sets what an on-demand index serves at once)." },
  DDB210: { title: "new entity (safe)", why: "A new entity adds items under keys validation has proved distinct from every other entity's; stored items are untouched.", example: "entities: { Tag: entity({ attributes: { tag: t.string() }, key: { pk: 'Tag#<tag>', sk: 'TAG' } }) }", fix: "Nothing to migrate: deploy the new code." },
  DDB211: { title: "entity removed (destructive)", why: "The stored items of a removed entity stay in the table, and no generated code reads or deletes them any more.", example: "// Post was in the old schema, not in the new one", fix: "Delete its items first, then acknowledge: migrations: [{ change: 'entities.Post' }]." },
  DDB212: { title: "new attribute", why: "A new optional attribute is absent from stored items, which is fine; a new required one is missing from every stored item.", example: "attributes: { bio: t.string() } // required, new", fix: "Declare it .optional(), or write a value into every stored item before the new code reads them." },
  DDB213: { title: "attribute removed (destructive)", why: "Stored items keep the removed attribute's values, and no code reads them any more.", example: "// nick was declared before, not any more", fix: "Keep it declared as .optional() while the data matters, or acknowledge the change in migrations." },
  DDB214: { title: "attribute changed", why: "A widened declaration still accepts every stored value; a narrowed one (a dropped enum value, a tighter range, made required, another type) may not.", example: "status: t.enum(['ACTIVE']) // was ['ACTIVE', 'BANNED']", fix: "Widen the declaration again, or check the stored items and acknowledge the change in migrations." },
  DDB215: { title: "key rewrite", why: "The table key of every stored item of the entity changes (template, encoding of a part, shard): each item must be written under its new key and the old one deleted.", example: "key: { pk: 'Customer#<id>', sk: 'PROFILE' } // was 'User#<id>'", fix: "Run the migration from ddbgen diff OLD NEW --emit-migration DIR, then acknowledge: migrations: [{ change: 'entities.User.key' }]." },
  DDB216: { title: "index mapping changed (backfill)", why: "Items stored before a new or changed index mapping carry no (or old) index attributes, so they are missing from the index until a backfill writes them.", example: "indexes: { byStatus: { pk: 'Status#<status>', sk: '<orderId>' } } // new mapping", fix: "Run the backfill from ddbgen diff OLD NEW --emit-migration DIR, then acknowledge the change in migrations." },
  DDB217: { title: "GSI added, removed or replaced", why: "DynamoDB fills a new GSI by itself; a removed one is deleted; a GSI whose keys or projection change is deleted and created again, two stack updates with queries failing between.", example: "byName: gsi({ pk: 'gsi1pk', sk: 'gsi1sk', projection: 'keys-only' }) // was 'all'", fix: "Add a GSI under a new name, move the code to it, then remove the old one." },
  DDB218: { title: "LSI changed (table recreation)", why: "Local secondary indexes exist only from table creation: adding, removing or changing one needs a new table.", example: "indexes: { byTitle: lsi({ sk: 'lsi1sk', projection: 'keys-only' }) } // was 'all'", fix: "Create a new table and copy the items into it, or use a GSI." },
  DDB219: { title: "table key or rotation changed (table recreation)", why: "DynamoDB cannot rename a table's key attributes or change how tables rotate on an existing table.", example: "key: { pk: 'PK', sk: 'SK' } // was pk / sk", fix: "Create a new table with the new definition and copy every item into it, then switch the code over." },
  DDB220: { title: "delimiter changed (key rewrite)", why: "Every stored key (every entity, index mapping and edge) is built with the delimiter: all of them must be rewritten.", example: "delimiter: '|' // was '#'", fix: "Run the migration from ddbgen diff OLD NEW --emit-migration DIR, then acknowledge: migrations: [{ change: 'delimiter' }]." },
  DDB221: { title: "split deploy", why: "CloudFormation creates or deletes one GSI per stack update; more in one change must go out in steps.", example: "indexes: { byTag: gsi({ pk: 'gsi2pk' }), byDay: gsi({ pk: 'gsi3pk' }) } // both new", fix: "Deploy the listed steps in order, each as its own stack update." },
  DDB222: { title: "access pattern changed (safe)", why: "Patterns generate methods, not stored data.", example: "patterns: { byUser: { entity: 'User' } }", fix: "Nothing to migrate; update the code that calls the pattern." },
  DDB223: { title: "edge changed", why: "Edge items are keyed by their labels and node types: changing those moves every stored edge item; removing an edge leaves its items behind.", example: "edges: { Follow: edge({ types: ['User'], forward: 'FOLLOWING' }) } // was FOLLOWS", fix: "Run the migration from ddbgen diff OLD NEW --emit-migration DIR when the change re-keys items (labels renamed, delimiter changed): it moves both halves of every edge. When it adds or drops halves (inverse or inverseIndex changed, a type removed), remove and re-add each relationship; then acknowledge the change." },
  DDB224: { title: "version attribute changed", why: "Items stored before a new version attribute carry no version, so writes that expect one fail.", example: "version: 'revision' // new", fix: "Write the version (e.g. 1) into every stored item, then acknowledge the change." },
  DDB225: { title: "setting changed (safe)", why: "Capacity, traffic and lint settings change code, capacity or findings, not stored data.", example: "capacity: { mode: 'provisioned', read: 100, write: 100 }", fix: "Nothing to migrate." },
  DDB226: { title: "change this ddbgen has no rule for", why: "A field ddbgen cannot classify is never assumed safe.", example: "// a field added by a newer ddbgen changed", fix: "Check what the change does to stored items, then acknowledge it in migrations." },
  DDB227: { title: "table added or removed", why: "A new table is created empty; a table removed from the schema keeps its physical table and items.", example: "export default [shop, audit] // audit is new", fix: "Create a new table before deploying code that uses it; delete a removed one when its data is no longer needed." },
  DDB228: { title: "stale acknowledgement", why: "A migrations entry that names no change in the diff is left over from an earlier change, or misspelled.", example: "migrations: [{ change: 'entities.User.key' }] // the key no longer changes", fix: "Remove the entry once the migration has shipped, or correct its path." },
  DDB229: { title: "schema not at the git ref", why: "ddbgen diff --base reads the old schema with git show, and the ref does not have the file.", example: "ddbgen diff --base v1.0 schema.ts // schema.ts was added after v1.0", fix: "Give a ref that has the schema, or compare two files: ddbgen diff OLD NEW." },
  DDB230: { title: "key codec change (key rewrite)", why: "Key codec v1 wrote an integer key part as its offset from the range's min (id 1 of 1..1e9 as 000000000); v2 writes the value itself (0000000001). For ranges whose min is not 0 every stored key differs, and v2 code reads a v1 key as a KeyParseError naming codec v1.", example: "ddbgen diff old.ts new.ts --old-codec 1  // User: key { pk: 'User#<id>' }, id: t.number({ integer: true, min: 1, max: 1e9 })", fix: "Run the migration from ddbgen diff OLD NEW --old-codec 1 --emit-migration DIR (it reads v1 keys and writes v2 ones), then acknowledge: migrations: [{ change: 'entities.User.key' }]." },
  DDB231: { title: "key codec change in an index mapping (backfill)", why: "An index key with an integer part whose range does not start at 0 was written by key codec v1 as the offset from min; v2 writes the value, so the index attributes of stored items must be rewritten.", example: "indexes: { byRank: { pk: 'Rank#<rank>' } }  // rank: t.number({ integer: true, min: 1, max: 100 }), stored by codec v1", fix: "Run the backfill from ddbgen diff OLD NEW --old-codec 1 --emit-migration DIR, then acknowledge the change in migrations." },
  DDB232: { title: "key codec change in edge items", why: "Edge items are keyed by their nodes' partition keys and ids; integer ids whose range does not start at 0 were written by key codec v1 as offsets from min.", example: "edges: { Fan: edge({ types: ['User'], forward: 'FAN_OF' }) }  // User ids 1..1e9, stored by codec v1", fix: "Run the migration from ddbgen diff OLD NEW --old-codec 1 --emit-migration DIR (it moves both halves of every edge in one transaction), then acknowledge: migrations: [{ change: 'edges.Fan' }]." },
  DDB233: { title: 'native index mapping changed', why: "A native GSI is keyed by the items' own attributes: DynamoDB indexes stored items by itself when the mapping uses their own names, while a renamed attribute is a copy that items stored before do not carry.", example: "indexes: { byTenant: { attributes: { tenantId: 'orgId' } } } // new mapping, tenantId is a copy of orgId", fix: 'Nothing to migrate for attributes mapped by their own names; for renamed ones run the backfill from ddbgen diff OLD NEW --emit-migration DIR, then acknowledge the change.' },
  DDB234: { title: 'discriminator changed', why: 'Reads keep only items whose discriminator values are the entity\'s; items stored with the old values would no longer be read.', example: "discriminator: { _et: 'Customer' } // was { _et: 'User' }", fix: 'Run the migration from ddbgen diff OLD NEW --emit-migration DIR (it writes the new values into each item), then acknowledge the change.' },
  DDB235: { title: 'attribute stored in another form', why: 'storedAs and a timestamp format say how the table holds an attribute; the items already stored keep the old name or form until they are rewritten, and reads would miss the value.', example: "birthday: t.string() // was t.string().storedAs('bday')", fix: 'Run the migration from ddbgen diff OLD NEW --emit-migration DIR (it rewrites the attribute in each item), then acknowledge the change.' },
  DDB240: { title: 'native GSI key size', why: 'DynamoDB keys a GSI by at most 4 partition-key and 4 sort-key attributes; CreateTable refuses more ("Too many partition keys").', example: "byTenant: gsi({ pk: ['tenantId', 'region', 'zone', 'team', 'desk'] })", fix: 'Keep at most 4 distinct attributes in pk and in sk; key on what queries fix first.' },
  DDB241: { title: 'non-scalar native key attribute', why: 'A key attribute of a native GSI holds one string, number or binary value; booleans, lists, maps and sets cannot be key attributes.', example: "attributes: { tags: t.stringSet() },\nindexes: { byTag: { attributes: { tag: 'tags' } } }", fix: 'Map a string, enum, timestamp, number or binary attribute, or keep the entity out of the index.' },
  DDB242: { title: 'native key attribute the entity lacks', why: 'An entity maps into a native GSI by attribute name; a key attribute it has no attribute for keeps every item of it out of the index.', example: "byTenant: gsi({ pk: ['tenantId'] }) // Invoice has orgId, not tenantId", fix: "Declare the attribute, or rename: indexes: { byTenant: { attributes: { tenantId: 'orgId' } } }." },
  DDB243: { title: 'rename of a name that is no key attribute', why: 'attributes: { … } on a native mapping renames key attributes of the index; any other name does nothing, and is usually a typo.', example: "indexes: { byTenant: { attributes: { tenant: 'orgId' } } } // the key attribute is tenantId", fix: 'Rename only key attributes of the index, or remove the entry.' },
  DDB244: { title: 'native key attribute with two types', why: "AttributeDefinitions give each key attribute one type; an item whose attribute of that name has another type is refused (\"Type mismatch for Index Key\"), so one entity's writes would all fail.", example: "Order: { total: t.number() }, Refund: { total: t.string() } // byTotal keys total", fix: 'Give the attribute one type everywhere it is stored, or rename one of them.' },
  DDB245: { title: 'template or shard on a native mapping', why: 'A native index is keyed by the items\' own attributes: there is no key string to build, so templates do not apply, and a shard suffix has nowhere to live.', example: "indexes: { byTenant: { pk: 'Tenant#<tenantId>', shard: { count: 4 } } }", fix: 'Map attributes by name or rename them; for a sharded key, use a synthetic gsi({ pk: \'gsi1pk\' }) with shard on the mapping.' },
  DDB246: { title: 'native key attribute named like a synthetic key', why: 'The table key and synthetic index keys are strings ddbgen builds from templates; a native key attribute of the same name would hold that string, not an attribute of the item.', example: "key: { pk: 'pk', sk: 'sk' },\nindexes: { byTenant: gsi({ pk: ['pk'] }) }", fix: 'Name native key attributes after the item attributes they hold.' },
  DDB247: { title: 'renamed copy over an own attribute', why: 'A renamed mapping writes the value under the index\'s attribute name; an entity that declares an attribute of that name would have it overwritten.', example: "Invoice: { tenantId: t.string(), orgId: t.string() },\nindexes: { byTenant: { attributes: { tenantId: 'orgId' } } }", fix: 'Map the own attribute of that name, or rename it.' },
  DDB248: { title: 'pattern on a native GSI', why: 'Declared patterns read synthetic key strings; a native index is queried by its attributes with the generated query<Index> method.', example: "patterns: { openOrders: { entity: 'Order', index: 'byTenant', sk: 'status' } }", fix: 'Call query<Index>(partition, { where }) on the repository, or point the pattern at a synthetic index.' },
  DDB250: { title: 'ttl names no attribute', why: 'The time-to-live attribute holds each expiring item\'s expiry; one that no entity declares is a typo, and nothing would ever expire.', example: "ttl: 'expiresAt', // no entity declares expiresAt", fix: "Declare the expiry on the entities that expire (expiresAt: t.timestamp()) and name it in ttl." },
  DDB251: { title: 'ttl attribute is not a timestamp', why: 'DynamoDB deletes an item after the instant its TTL attribute holds (epoch seconds); ddbgen writes that number from a Date, so the attribute must be a timestamp on every entity that declares it.', example: "ttl: 'expiresAt',\nentities: { Session: entity({ attributes: { expiresAt: t.string() }, … }) }", fix: 'Declare it t.timestamp() (optional when some items never expire), or rename the other attribute.' },
  DDB252: { title: 'point-in-time recovery period out of range', why: 'DynamoDB keeps continuous backups for 1 to 35 days (RecoveryPeriodInDays).', example: 'pointInTimeRecovery: { days: 90 }', fix: 'Give a whole number of days from 1 to 35, or leave days out (35).' },
  DDB253: { title: 'throughput setting is not a positive whole number', why: 'Warm throughput and on-demand maxima are units per second; DynamoDB takes positive integers.', example: 'onDemandMax: { readRequestUnits: 0 }', fix: 'Give a whole number above 0, or leave the setting out.' },
  DDB254: { title: 'onDemandMax on a provisioned table, or empty', why: 'OnDemandThroughput caps what an on-demand table serves; a provisioned table is capped by its provisioned capacity.', example: "capacity: { mode: 'provisioned', read: 100, write: 100 },\nonDemandMax: { readRequestUnits: 500 }", fix: 'Use on-demand capacity with onDemandMax, or remove onDemandMax.' },
  DDB255: { title: 'tag key not accepted by DynamoDB', why: 'DynamoDB tag keys are 1 to 128 characters of letters, digits, white space and + - = . _ : /; the aws: prefix is reserved.', example: "tags: { 'aws:owner': 'me' }", fix: 'Rename the key within those rules.' },
  DDB270: { title: 'stored attribute name that cannot be used', why: 'storedAs maps an item property to the attribute the table holds; two properties stored under one name, or one stored under a key attribute or a discriminator, would overwrite each other, and the version, ttl and native index keys are read by DynamoDB or ddbgen under their own names.', example: "attributes: { birthday: t.string().storedAs('pk') }", fix: 'Give the exact stored name, one no other attribute, key attribute or discriminator uses; keep the version, ttl and native index key attributes under their own names.' },
  DDB271: { title: 'discriminator that cannot be written', why: 'A discriminator is written with every item and tells the entity\'s items apart from others; it needs attributes of its own with fixed string values.', example: "discriminator: { _et: '' }", fix: "Name attributes the entity does not declare, each with a non-empty string value, e.g. discriminator: { _et: 'User' }." },
  DDB256: { title: 'tag value not accepted by DynamoDB', why: 'DynamoDB tag values are strings of at most 256 characters of letters, digits, white space and + - = . _ : /.', example: "tags: { owner: 'a'.repeat(300) }", fix: 'Shorten the value or drop the characters DynamoDB refuses.' },
  DDB257: { title: 'more than 50 tags', why: 'A DynamoDB table holds at most 50 user tags; CreateTable and the stack update fail with more.', example: 'tags: { t1: \'a\', …, t51: \'z\' }', fix: 'Remove tags, or combine related ones into one value.' },
  DDB258: { title: 'table setting of the wrong type', why: 'Table settings are printed into the CreateTable input, CloudFormation and CDK; a value of another type would deploy something else or fail there.', example: "deletionProtection: 'yes'", fix: 'Give the type the message names, or leave the setting out.' },
  DDB260: { title: 'unknown stream view type', why: "A table's stream records carry what its view type says: both images, the item after or before the change, or only its key. The generated decoder and handler types follow it, and CreateTable accepts only DynamoDB's four view types.", example: "stream: 'new-images'", fix: "Use stream: 'new-and-old-images', 'new-image', 'old-image' or 'keys-only', or leave it out for no stream." },
  DDB261: { title: 'stream added, removed or changed', why: "A new stream is safe; removing one cuts off its consumers; DynamoDB changes a stream's view type only by disabling the stream and enabling a new one, with a new ARN, so consumers must move to it.", example: "stream: 'keys-only' // was 'new-and-old-images'", fix: "Point consumers at the table's new LatestStreamArn after the deploy and regenerate the handlers, then acknowledge: migrations: [{ change: 'stream' }]." },
  DDB300: { title: 'pull cannot read the table or model', why: 'ddbgen pull reads the table\'s description and a sample of its items (or a NoSQL Workbench model file). An unreachable endpoint, missing credentials or region, a refused permission, a table that does not exist or a model file that is not one stop it before anything is inferred; nothing is written.', example: 'npx ddbgen pull --table shop-prod --endpoint http://127.0.0.1:9', fix: 'Do what the message says (check --endpoint, --region, the credentials, the permission it names, or the model file), then pull again.' },
  DDB301: { title: 'pull has nothing to infer from', why: 'An empty table, a table keyed by numbers or binary values, or a --discriminator no item carries gives pull nothing to describe entities with; nothing is written.', example: 'npx ddbgen pull --table shop-prod --discriminator kind   # no item has a string kind', fix: 'Pull again once the table holds items, name an attribute the items carry, or describe the table by hand (ddbgen init writes a starter schema).' },
  DDB302: { title: 'no entity fits the sampled items', why: 'pull infers an entity from a discriminator attribute or from a key shape that several items share; when no item fits one (keys holding values no attribute holds, every shape seen once) there is no entity to write, and nothing is written. The message counts the reasons; --format json lists every item with its key and reason.', example: "items keyed 'DOC#7b0c1f9e-…' / 'V1' with no attribute holding the uuid", fix: 'Name the attribute that tells entities apart with --discriminator, sample more items (--sample N), or write the entities by hand.' },
  DDB303: { title: 'the inferred schema does not validate', why: 'pull loads the schema it writes before putting it in place. An inferred entity that collides with another is left out, with its items listed, and the rest is written; what cannot be fixed so (a problem of the table itself) stops it, and nothing is written.', example: 'npx ddbgen pull --table shop-prod --format json   # { "code": "DDB303", … }', fix: 'Pull with --discriminator or a larger --sample, or write the reported entities by hand.' },
  DDB304: { title: 'pull left an index out of an entity', why: "An entity maps a table's index when its items are in it. When only some of them are, and the index's keys read no attribute the others lack, ddbgen could not tell which items belong in it (it writes an index for every item holding its inputs), so pull leaves the mapping out: items ddbgen writes are then not in the index another program reads. When most items are in it, the mapping stays and the few outside are listed as outliers instead.", example: '// 30 of 60 Order items carry GSI1PK / GSI1SK, the others none', fix: 'Map the index by hand where the items belong in it (a sparse mapping reads an optional attribute), or fix the items.' },
  DDB305: { title: 'pull left an LSI out of the schema', why: "ddbgen's LSIs hold a built sort key; an LSI keyed by an attribute the items hold as data is not one it can describe, so the schema leaves it out.", example: "// LSI byTotal keyed by the number attribute total", fix: 'Query it with the AWS SDK, or move to a GSI that ddbgen maps.' },
  DDB306: { title: 'pull left an inferred entity out', why: 'Two entities pull infers from key shapes can build the same key (DDB040), or one of them does not validate; rather than write nothing, pull leaves out the one with fewer items and lists its items as fitting no entity.', example: "// 6 orders keyed ORDER#<placedAt>, 3 keyed ORDER#<orderId>", fix: 'Fix the listed items, or write that entity by hand with a literal of its own in its keys.' },
  DDB307: { title: "pull found stored keys the schema's codec writes otherwise", why: "Every template pull writes is loaded back and checked: ddbgen's codec builds each sampled item's keys from the item's own attributes, and a template fits an item only when that is the stored key byte for byte. An item whose stored key differs (a part padded where the others are not, a label missing) could not be found, updated or deleted through the generated code, so it is listed as an outlier with both keys; when too few items fit, the index mapping or the entity is left out instead (DDB304, DDB306).", example: "// fleetno_7 and fleetno_105 beside fleetno_041 in one index", fix: "Rewrite the listed items' keys as the schema writes them, or widen the schema by hand (a keyFormat on the attribute whose part differs)." },
  DDB310: { title: 'observed-traffic file cannot be read', why: 'ddbgen lint --observed and ddbgen report --observed read a file of observed traffic: EMF lines (one JSON document per line), an OTLP JSON metrics export, or a Contributor Insights GetInsightRuleReport answer. A file that is not one of these, or whose numbers are not numbers, is refused at the place it goes wrong, with nothing linted.', example: 'ddbgen lint --observed metrics.log\n// metrics.log:3:1 - error DDB310: the observed-traffic file cannot be read: line 3 is not JSON', fix: 'Give the file as the tool wrote it: the EMF lines from the log (Lambda prefixes are fine), the collector\'s OTLP JSON, or the CLI\'s JSON answer.' },
  DDB311: { title: 'observed-traffic file holds nothing ddbgen can use', why: "The file parsed, but it holds no line of ddbgen's EMF namespace, no ddbgen metric, and no Contributor Insights contributors: there is no observed traffic to compare.", example: 'ddbgen lint --observed empty.json', fix: "Export ddbgen's own metrics (EmfWriter, or the OpenTelemetry meter the generated code records to)." },
  DDB312: { title: 'observed traffic of an undeclared entity or pattern', why: 'The observed file names an entity or pattern the schema does not have (another table, an older schema): its numbers cannot be compared and are left out.', example: "// EMF line with Entity: 'Order' linted against a schema without Order", fix: 'Lint against the schema the traffic came from.' },
  HK001: { title: 'constant partition key taking writes', why: 'A partition key without a placeholder sends every write to one partition, which takes at most 1,000 WCU/s.', example: "key: { pk: 'Leaderboard', sk: '<score>' },\ntraffic: { writesPerSecond: 3000 }", fix: 'Add a placeholder to the partition key, or shard it: key: { pk: \'Leaderboard#<shard>\', shard: { count: 4 } }.' },
  HK002: { title: 'low-cardinality partition key', why: 'An enum, boolean or attribute with few declared values spreads traffic over only that many partitions.', example: "attributes: { status: t.enum(['OPEN', 'CLOSED']) },\nkey: { pk: 'Status#<status>' }", fix: 'Key on a high-cardinality attribute, or add a shard: { count } to the key.' },
  HK003: { title: 'time-bucket partition key without a shard', why: 'Every write in a period (a minute, hour, day or month) goes to one key: one partition takes the whole write load.', example: "key: { pk: 'Clicks#<at:day>', sk: '<at>' },\ntraffic: { writesPerSecond: 2000 }", fix: "Shard the bucket: key: { pk: 'Clicks#<at:day>#<shard>', shard: { count: N } } with N = ceil(peak WCU / 800)." },
  HK004: { title: 'single item written above 1,000 WCU/s', why: 'One item lives in one partition; no split can spread a single hot item (counters, aggregates).', example: "key: { pk: 'Counter#<name>', sk: 'TOTAL' },\ntraffic: { writesPerSecond: 5000, items: 1 }", fix: 'Split the item into N counter items summed on read, or buffer writes and apply them in batches.' },
  HK005: { title: 'single item read above 3,000 RCU/s', why: 'One item is served by one partition, at most 3,000 strongly consistent reads of 4 KB per second.', example: "key: { pk: 'Config', sk: 'GLOBAL' },\ntraffic: { readsPerSecond: 10000, items: 1 }", fix: 'Eventually consistent reads: cache it (DAX or an application cache), or keep copies under N keys read at random. Strongly consistent reads: keep copies under N keys written together in one transaction, or read eventually consistent where the design allows; DAX passes strongly consistent reads through uncached, and an application cache gives up their consistency.' },
  HK006: { title: 'hot collection that split-for-heat cannot help', why: 'DynamoDB splits a hot partition between sort-key values; a monotonic sort key writes always at the end, and an LSI forbids splitting an item collection.', example: "key: { pk: 'Device#<id>', sk: '<at>' },\ntraffic: { writesPerSecond: 1500, itemsPerKey: 1e6 }", fix: 'Shard the partition key, or drop the LSI.' },
  HK007: { title: 'declared skew above a partition\'s limit', why: 'hotKeyShare says one key value takes that share of the traffic: it all lands on one partition.', example: 'traffic: { writesPerSecond: 10000, hotKeyShare: 0.3 }', fix: 'Shard the partition key so the hottest value spreads over N keys.' },
  HK008: { title: 'GSI back-pressure', why: 'A GSI that throttles throttles the base table\'s writes; a low-cardinality, time-bucketed or hot GSI partition key does.', example: "indexes: { byStatus: { pk: 'Status#<status>', sk: '<at>' } }", fix: 'Key the GSI on a high-cardinality attribute, shard it, or make it sparse.' },
  HK009: { title: 'GSI write amplification', why: 'Each change to an attribute in a GSI key rewrites the index item (a delete and a put), and every all-projection GSI copies each item.', example: "indexes: { byViews: { pk: 'Views#<views>' } }  // views changes on every read", fix: 'Keep volatile attributes out of index keys; project keys-only or the attributes you read.' },
  HK010: { title: 'LSI item collection may exceed 10 GB', why: 'With an LSI, all items of a partition key value (and their index copies) are capped at 10 GB.', example: "indexes: { byTitle: lsi({ sk: 'lsi1sk' }) },\ntraffic: { itemsPerKey: 1e7, itemBytes: 2000 }", fix: 'Use a GSI instead, or bound the collection (a time bucket in the partition key).' },
  HK011: { title: 'item size', why: 'An item is at most 400 KB, and large items cost a write unit per KB on every write. Two sizes are checked, each for what it decides: the declared traffic.itemBytes is the average, which sets the cost (a warning above 100 KB); the largest size the attribute declarations allow (strings with maxBytes, lists with maxItems) sets whether an item can be written at all, whatever the average (an error above 400 KB).', example: "attributes: { body: t.string({ maxBytes: 500000 }) }", fix: 'Split large items into an item collection, or keep blobs in S3 and store their keys.' },
  HK012: { title: 'on-demand ramp', why: 'A new on-demand table serves 4,000 write and 12,000 read units at once and doubles every 30 minutes.', example: "capacity: { mode: 'on-demand' },\ntraffic: { writesPerSecond: 20000 }", fix: 'Pre-warm the table and indexes to the peak (WarmThroughput), or ramp traffic up.' },
  HK013: { title: 'table quota', why: 'The default quota is 40,000 read and 40,000 write units per table, its GSIs included.', example: 'traffic: { writesPerSecond: 30000 }  // and two all-projection GSIs', fix: 'Request a quota increase before launch, or spread the load over tables.' },
  HK014: { title: 'transaction contention or limits', why: 'Transactions hold at most 100 items and 4 MB; conditional writes on one hot item conflict and retry.', example: "version: 'revision',\ntraffic: { writesPerSecond: 500, items: 1 }", fix: 'Keep per-writer items and aggregate them, or update with an unconditional ADD.' },
  HK015: { title: 'shard fan-out cost', why: 'A read of a sharded key queries every shard: N shards cost N queries per logical read.', example: "key: { pk: 'Feed#<shard>', shard: { count: 200 } },\ntraffic: { readsPerSecond: 500 }", fix: 'Use fewer shards (N = ceil(peak WCU per key / 800)), a calculated suffix (shard.by), or an aggregate item.' },
  HK016: { title: 'PII in a key', why: 'Keys appear in metrics (Contributor Insights), logs, exports and cursors.', example: "attributes: { email: t.string({ pii: true }) },\nkey: { pk: 'User#<email>' }", fix: 'Key on a surrogate id or a keyed hash, and keep the value in a non-key attribute.' },
  HK017: { title: 'sharded key still too hot', why: 'Sharding divides a key\'s load by the shard count; with too few shards (or a calculated suffix that leaves the hottest value on one shard) a shard still takes more than a partition serves.', example: "key: { pk: 'Vote#<candidateId>#<shard>', sk: '<voterId>', shard: { count: 2 } },\ntraffic: { writesPerSecond: 10000 }", fix: 'Raise the shard count to N = ceil(peak WCU per key / 800), or spread by an attribute that varies within the key (shard.by).' },
  HK018: { title: 'declared peak above provisioned capacity', why: 'On a provisioned table, requests beyond the provisioned units (of the table, and of each GSI separately) are throttled.', example: "capacity: { mode: 'provisioned', read: 100, write: 100 },\ntraffic: { writesPerSecond: 500 }", fix: 'Provision at least the declared peak (with headroom), or use on-demand capacity.' },
  HK019: { title: 'queries that pay for another entity\'s items', why: 'Entities that share a partition are told apart by their sort keys, so a query returns only its own entity; but DynamoDB reads every item in the key range it is asked for and bills them all (1 RCU per 4 KB strongly consistent, half that eventually consistent). When another entity\'s sort keys fall in that range (seed 000\'s sequence: a metadata item at position 0 beside the items at positions 1..n), each query pays for them too.', example: "Category: key { pk: 'User#<userId>', sk: '0#<sequenceId>' }\nArticle: key { pk: 'User#<userId>', sk: '<position>#<sequenceId>' }  // Article queries read the categories", fix: 'Start each sort key in a shared partition with a literal of its own (Article#<position>…), or query a range the other entity\'s keys sort outside of.' },
  HK020: { title: 'native key that needs a shard', why: 'A native GSI is keyed by the items\' own attributes: there is no key string to append a shard suffix to, so a low-cardinality or hot native key cannot be spread, and a throttled GSI throttles the table\'s writes.', example: "byStatus: gsi({ pk: ['status'] }) // 3 values, 2,000 writes/s", fix: 'Keep the index synthetic with a shard (gsi({ pk: \'gsi1pk\' }) and shard: { count } on the mapping), or key the native index on a finer attribute.' },
  HK021: { title: 'synthetic key that could be native', why: 'A synthetic key made only of whole attributes the items store duplicates them as a string; a native multi-attribute GSI keys on the attributes themselves, and DynamoDB fills it from the stored items, so no backfill is needed.', example: "indexes: { byTenant: { pk: '<tenantId>#<region>', sk: '<createdAt>' } }", fix: "Declare a native gsi({ pk: ['tenantId', 'region'], sk: ['createdAt'] }) under a new name, move queries to it, then drop the synthetic one." },
  HK022: { title: 'declared peak near or above the on-demand maximum', why: 'An on-demand table with OnDemandThroughput serves at most that many request units per second; beyond it requests throttle, however many partitions it has.', example: "onDemandMax: { writeRequestUnits: 1000 },\ntraffic: { writesPerSecond: 2000 }", fix: 'Raise onDemandMax to the peak with headroom (peak / 0.8), or remove it.' },
  HK023: { title: 'ttl attribute in a key, or never required', why: 'An expiry inside a key template cannot change without moving the item (or rewriting its index entry); a ttl attribute that every entity declares optional may be set on no item at all.', example: "ttl: 'expiresAt',\nkey: { pk: 'Session#<expiresAt>', sk: 'S' }", fix: 'Keep the ttl attribute out of key templates; make it required where every item must expire.' },
  HK024: { title: 'key values written unescaped', why: "ddbgen's codec escapes a value's delimiter, so every key splits back into its parts whatever the values hold (injective). A table another writer keyed without escaping (keyFormat: { escape: false }) can only refuse a value that holds the delimiter, or it could not be parsed back.", example: "keyFormat: { escape: false },\nkey: { pk: 'USER#<name>', sk: 'PROFILE' }", fix: "Keep free-text key parts free of the delimiter (ids, slugs), or move to ddbgen's codec: drop escape: false and run the migration ddbgen diff --emit-migration writes." },
  HK025: { title: 'integer key part that sorts as text', why: "ddbgen's codec writes integers fixed-width from their declared min and max, so keys sort as the numbers do. Written plain (keyFormat: { integers: 'plain' }), 10 sorts before 9: a sort key holding one is out of numeric order, and ddbgen refuses range conditions on it rather than return the wrong items.", example: "keyFormat: { integers: 'plain' },\nkey: { pk: 'USER#<userId>', sk: 'ORDER#<orderNo>' }", fix: "Read such items with eq, or move to ddbgen's codec: integers: 'padded' with min and max, and run the migration ddbgen diff --emit-migration writes." },
  HK101: { title: 'observed rate far above the declared one', why: "ddbgen lint --observed reads what the generated code reported in production (EMF, OpenTelemetry metrics) and compares each access pattern's rate with its declaration: at ten times the declared rate or more, every figure the lint worked out from the declaration (units per key, shard counts, warm throughput) is ten times too small. A pattern or entity observed with no rate declared is reported as info, with the rate to declare.", example: "patterns: { recentArticles: { entity: 'Article', sk: 'updatedAt', op: 'between', readsPerSecond: 2 } }\n// observed: 1,200 calls in 60 s = 20/s", fix: 'Declare the observed rate (the fix names it, rounded up) on the pattern or the entity\'s traffic, and lint again: the rules then judge the design against what it serves.' },
  HK102: { title: 'observed hot key the declaration did not expect', why: "A CloudWatch Contributor Insights report (GetInsightRuleReport) names the most accessed and most throttled partition keys. A key that takes a larger share of the traffic than the declared hotKeyShare, that comes near a partition's 3,000 RCU / 1,000 WCU, or that was throttled at all, breaks what the lint assumed about the key space.", example: "traffic: { readsPerSecond: 2000 }            // no hotKeyShare: assumed spread\n// observed: User.u-42 took 45% of 1,800 requests/s", fix: 'Declare hotKeyShare as observed (the fix names it) and lint again; for a throttled or over-limit key, shard it, cache it, or spread its writes.' },
  HK103: { title: 'observed GSI write cost above the table\'s', why: 'Every write that changes a GSI key or projected attribute is written to the index too, in units of the index item\'s size; a GSI whose write units are past the table\'s own means the index costs more than the data, and it throttles the table when it runs out of capacity.', example: "byName: gsi({ pk: 'gsi1pk', sk: 'gsi1sk', projection: 'all' })\n// observed: 120 WCU on byName against 100 on the table", fix: 'Project fewer attributes (keys-only or a list), make the index sparse, or keep changing attributes out of its key.' },
  HK026: { title: 'key values folded to one case', why: "ddbgen's codec keeps a value's case, so Ab and aB are two keys. Folded (keyFormat: { casing: 'lower' }, ElectroDB's default), they share one key and overwrite each other, and a key parses back to the folded value.", example: "keyFormat: { casing: 'lower' },\nkey: { pk: '$app#user_<userId>', sk: '$user_1' }", fix: "Treat such ids as case-insensitive and normalise them before writing, or move to ddbgen's codec: drop casing, and run the migration ddbgen diff --emit-migration writes." },
};
