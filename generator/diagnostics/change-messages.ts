// The catalogue's change messages (DDB210–DDB235): what `ddbgen diff` finds between two versions
// of a schema, what each change means for the stored items and what a migration must do. Part of
// the one catalogue messages.ts assembles.

import { quotedList } from './schema-messages.js';

export const changeMessages = {
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
    message: `${entity}'s ${part} ${change}: every stored ${entity} item must be written under its new key and its old key deleted${edges.length ? `, and the items of edge${edges.length === 1 ? '' : 's'} ${quotedList(edges)} in its partitions move with it` : ''}`,
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
    message: `${entity}'s keys hold ${quotedList(parts)}, integer${parts.length === 1 ? '' : 's'} whose range does not start at 0: key codec v${from} stored ${parts.length === 1 ? 'it' : 'them'} as the offset from min (id 1 of 1..1e9 as 000000000), codec v${to} as the value itself (0000000001), so every stored ${entity} item must be written under its new key and its old key deleted`,
    fix: `generate and run the migration (ddbgen diff OLD NEW --old-codec ${from} --emit-migration DIR: it reads the old keys with codec v${from} and writes codec v${to}), then acknowledge: migrations: [{ change: 'entities.${entity}.key' }]`,
  }),
  DDB231: (entity: string, index: string, parts: readonly string[], from: number, to: number) => ({
    message: `${entity}'s mapping into index "${index}" holds ${quotedList(parts)}, integer${parts.length === 1 ? '' : 's'} whose range does not start at 0, which key codec v${from} wrote as the offset from min and v${to} writes as the value: the index attributes of stored ${entity} items must be rewritten`,
    fix: `generate and run the backfill (ddbgen diff OLD NEW --old-codec ${from} --emit-migration DIR), then acknowledge: migrations: [{ change: 'entities.${entity}.indexes.${index}' }]`,
  }),
  DDB232: (edge: string, types: readonly string[], from: number, to: number) => ({
    message: `edge "${edge}" connects ${quotedList(types)}, whose ids are integers key codec v${from} wrote as the offset from min and v${to} writes as the value: its stored items are keyed by the old form and must be rewritten`,
    fix: `generate and run the migration (ddbgen diff OLD NEW --old-codec ${from} --emit-migration DIR: it reads each edge item's node ids with codec v${from} and moves both halves of the edge to codec v${to} keys), then acknowledge: migrations: [{ change: 'edges.${edge}' }]`,
  }),
  DDB233: (entity: string, index: string, change: 'new' | 'changed' | 'removed', copies: readonly string[]) => ({
    message:
      change === 'removed'
        ? `${entity} no longer maps into native index "${index}": its stored items keep the attributes the index is keyed by, so they stay in the index`
        : copies.length
          ? `${entity}'s mapping into native index "${index}" is ${change} and writes ${quotedList(copies)} as ${copies.length === 1 ? 'a renamed copy' : 'renamed copies'}: items stored before carry no copy, so they are missing from the index until a backfill writes them`
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
} satisfies Record<string, (...args: never[]) => { message: string; fix: string }>;
