// The catalogue's messages on native GSIs, Time to Live, table settings and streams (DDB240–DDB261).
// Part of the one catalogue messages.ts assembles.

import { quotedList } from './schema-messages.js';

export const settingsMessages = {
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
    message: `${entity}'s mapping for native GSI "${index}" renames "${name}", which is not one of its key attributes (${quotedList(keys)})`,
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
      ? `name the timestamp attribute that holds each item's expiry, e.g. ttl: '${timestamps[0]}' (the entities' timestamps: ${quotedList(timestamps)})`
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
} satisfies Record<string, (...args: never[]) => { message: string; fix: string }>;
