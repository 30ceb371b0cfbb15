// Least-privilege IAM from the schema, as data: one policy per declared access pattern, per entity
// repository, per edge and per table role (read-only, writer), each statement holding exactly the
// DynamoDB actions the generated methods send (decided by the emitters' own rules: which methods an
// entity gets), on the table or index they send them to, narrowed by dynamodb:LeadingKeys: the
// partition-key templates as the codec writes them (key-language.ts), a shard suffix as one `?` per
// digit, a tenant placeholder as a principal tag, and, where a `*` would also match another
// entity's or another tenant's partitions (a longer template, a value holding an escaped
// delimiter), the patterns that take those out (`ForAllValues:StringNotLike`); what no pattern can
// take out, and what the exclusions also refuse, is said in the plan's notes. Also
// dynamodb:Attributes / dynamodb:Select on projected indexes and dynamodb:ReturnValues where a write
// returns nothing or only the old item. Pure; the output formats (iam-formats.ts) only print it.

import type { EdgeDef, EntityDef, ShardDef, TableDef, TemplateDef } from '../../dsl/ir.js';
import { SHARD_SEGMENT, splitKey, type SegmentDef } from '../../templates/runtime/codec.js';
import { createContext } from '../emit/context.js';
import { entityScope, type EntityScope } from '../emit/entity/entity-scope.js';
import { updateType } from '../emit/entity/item-types.js';
import { counters } from '../emit/operations/repository-counter.js';
import { gathersConstant } from '../emit/operations/repository-crud.js';
import { queryPaths } from '../emit/operations/repository-index-query.js';
import { resolvePattern, type AccessPath, type ResolvedPattern } from '../model/access-paths.js';
import { keySegment } from '../model/key-segments.js';
import { escapedVariants, globLanguage, globOf, globText, keyLanguage, KeyLanguages, showKey, union, type GlobToken, type KeyForm, type KeyLanguage } from './key-language.js';

export { iamLiteral } from './key-language.js';

/** The placeholder that carries the caller's tenant, and the principal tag that holds its key text. */
export interface TenantScope {
  readonly attribute: string;
  readonly tag: string;
}

export interface IamOptions {
  readonly tenant?: TenantScope;
}

/** One Allow statement on one resource (the table, or one of its indexes). */
export interface Grant {
  readonly sid: string;
  readonly actions: readonly string[];
  /** Undefined: the table itself. */
  readonly index?: string;
  /** The table's stream (`…/stream/*`) instead of the table. */
  readonly stream?: true;
  /** `ForAllValues:StringLike` on dynamodb:LeadingKeys (with a Null check so the key must be there); undefined: any partition. */
  readonly leadingKeys?: readonly string[];
  /** `ForAllValues:StringNotLike` on dynamodb:LeadingKeys: the partitions of others that `leadingKeys` would also match. */
  readonly excludedKeys?: readonly string[];
  /** `ForAllValues:StringEquals` on dynamodb:Attributes: the attributes a projected index holds. */
  readonly attributes?: readonly string[];
  /** `StringEqualsIfExists` on dynamodb:Select. */
  readonly select?: readonly string[];
  /** `StringEqualsIfExists` on dynamodb:ReturnValues. */
  readonly returnValues?: readonly string[];
}

export type PolicyRole = 'read-only' | 'writer' | 'entity' | 'edge' | 'pattern' | 'stream-consumer';

export interface PolicyModel {
  /** `SocialReadOnly`, `SocialWriter`, `SocialArticle` (entity), `SocialFan` (edge), `SocialArticleRecentArticles` (pattern), `FansStreamConsumer`. */
  readonly name: string;
  readonly role: PolicyRole;
  readonly table: TableDef;
  readonly description: string;
  readonly grants: readonly Grant[];
  /**
   * The entities and edges (`edge Fan`) whose items the policy also reaches, because they live in
   * partitions it is granted (IAM sees the partition key only) or in a native index it is granted whole.
   */
  readonly sharesWith: readonly string[];
}

export interface IamPlan {
  readonly policies: readonly PolicyModel[];
  /** What the policies leave out, cannot exclude, or also refuse, one sentence each. */
  readonly notes: readonly string[];
}

const dynamodb = (...actions: string[]) => actions.map((a) => `dynamodb:${a}`);
const PROJECTED_SELECT = ['ALL_PROJECTED_ATTRIBUTES', 'SPECIFIC_ATTRIBUTES', 'COUNT'];
const pascal = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);
const unique = (values: ReadonlyArray<string | undefined>) => [...new Set(values.filter((v): v is string => v !== undefined))].sort();

/** One partition-key template of a key space (the table's `pk`, or a GSI's), and whose items it keys: an entity, or `edge Fan` (one member per node type). */
interface Member {
  readonly owner: string;
  readonly form: KeyForm;
}

/** The partition keys written to the table (undefined) or to one GSI, by every entity and edge. */
interface KeySpace {
  readonly index: string | undefined;
  readonly members: readonly Member[];
}

/** A template's runtime segments, as the generated code builds the key (an unknown placeholder: any string). */
function formOf(table: TableDef, entity: EntityDef, template: TemplateDef, shard: ShardDef | undefined, tenant: TenantScope | undefined): KeyForm {
  const segments = template.segments.map((s): SegmentDef => {
    // a shard is its zero-padded suffix, whatever it hashes
    if (s.kind === 'placeholder' && s.name === 'shard' && shard) return { kind: 'shard', attr: SHARD_SEGMENT, count: shard.count, ...(shard.start ? { start: shard.start } : {}), by: [] };
    return keySegment(entity, s) ?? { kind: 'string', attr: s.kind === 'placeholder' ? s.name : s.text };
  });
  const holdsTenant = tenant !== undefined && template.segments.some((s) => s.kind === 'placeholder' && s.name === tenant.attribute);
  return { segments, delimiter: table.delimiter, ...(holdsTenant ? { tenant: tenant.attribute } : {}) };
}

/** What one table's policies are built from: its key spaces, and each entity's generated methods. */
class TableModel {
  readonly table: TableDef;
  readonly tenant: TenantScope | undefined;
  readonly notes: string[];
  readonly #spaces = new Map<string | undefined, KeySpace>();
  readonly #scopes = new Map<string, EntityScope>();
  readonly #scoped = new Map<string, ScopedKeys>();

  constructor(table: TableDef, tenant: TenantScope | undefined, notes: string[]) {
    this.table = table;
    this.tenant = tenant;
    this.notes = notes;
    const entities = Object.values(table.entities);
    const entityMembers = entities.map((e): Member => ({ owner: e.name, form: formOf(table, e, e.key.pk, e.key.shard, tenant) }));
    // an edge's items are keyed by its nodes' partition keys
    const edgeMembers = (edge: EdgeDef) => edge.types.flatMap((type) => entityMembers.filter((m) => m.owner === type).map((m) => ({ ...m, owner: `edge ${edge.name}` })));
    const primary = [...entityMembers, ...Object.values(table.edges).flatMap(edgeMembers)];
    this.#spaces.set(undefined, { index: undefined, members: primary });
    for (const [name, index] of Object.entries(table.indexes)) {
      if (index.kind === 'lsi') this.#spaces.set(name, { index: name, members: primary });
      if (index.kind !== 'gsi') continue;
      const members = entities.flatMap((e) => {
        const mapping = e.indexes[name];
        return mapping?.pk ? [{ owner: e.name, form: formOf(table, e, mapping.pk, mapping.shard, tenant) }] : [];
      });
      // an edge whose inverse lives in this GSI writes its nodes' partition keys into the index's
      for (const edge of Object.values(table.edges).filter((e) => e.inverseIndex === name)) members.push(...edgeMembers(edge));
      this.#spaces.set(name, { index: name, members });
    }
  }

  /** The key space of the table (undefined) or of one index (an LSI's is the table's partition keys). */
  space(index: string | undefined): KeySpace {
    return this.#spaces.get(index) ?? { index, members: [] };
  }

  /** An edge's members in the table's (undefined) or its inverse GSI's key space: its node types' partition keys. */
  edgeMembers(edge: EdgeDef, index: string | undefined): Member[] {
    return this.space(index).members.filter((m) => m.owner === `edge ${edge.name}`);
  }

  member(entity: EntityDef, index: string | undefined): Member | undefined {
    return this.space(index).members.find((m) => m.owner === entity.name);
  }

  readonly #shared = new Map<string, Set<string>>();

  /** Records that `policy` reaches `owners`' items; returns every owner recorded for it so far. */
  shares(policy: string, owners: readonly string[] = []): string[] {
    let set = this.#shared.get(policy);
    if (!set) this.#shared.set(policy, (set = new Set()));
    for (const owner of owners) set.add(owner);
    return [...set].sort();
  }

  scope(entity: EntityDef): EntityScope {
    let scope = this.#scopes.get(entity.name);
    if (!scope) this.#scopes.set(entity.name, (scope = entityScope(entity, createContext(this.table))));
    return scope;
  }

  /** The LeadingKeys of `allowed` in `index`'s key space, analysed once per policy (its notes said once). */
  keys(policy: string, index: string | undefined, allowed: readonly Member[]): ScopedKeys {
    const id = `${policy}\u0000${index ?? ''}\u0000${allowed.map((m) => m.owner).join(',')}`;
    let keys = this.#scoped.get(id);
    if (!keys) {
      keys = scopeKeys(this.space(index), allowed, this.table.delimiter, this.tenant);
      this.#scoped.set(id, keys);
      this.shares(policy, keys.shared);
      const where = index === undefined ? '' : ` (index ${index})`;
      this.notes.push(...keys.notes.map((note) => `${policy}${where}: ${note}`));
    }
    return keys;
  }
}

/** LeadingKeys patterns, the exclusions they need, and what the analysis found. */
interface ScopedKeys {
  readonly leadingKeys: string[];
  readonly excludedKeys: string[];
  /** Owners whose partitions are also allowed ones. */
  readonly shared: string[];
  readonly notes: string[];
}

const owners = (names: readonly string[]) => [...new Set(names)].join(', ');

/**
 * The patterns of `allowed` in a key space, and the exclusions that keep them off every other
 * member's partitions and, under a tenant scope, off other tenants': first the variants of each
 * pattern with an escaped delimiter after a `*` (a value holding the delimiter), then another
 * member's own pattern where it still overlaps — unless that pattern would refuse every allowed
 * key. Notes: partitions shared with another member (one key string, so IAM cannot tell them
 * apart), overlaps no exclusion removes, and allowed keys an exclusion also refuses.
 */
function scopeKeys(space: KeySpace, allowed: readonly Member[], delimiter: string, tenant: TenantScope | undefined): ScopedKeys {
  const mode = tenant ? 'own' : undefined;
  const globs = [...new Map(allowed.map((m) => globOf(m.form)).map((g) => [globText(g, tenant?.tag), g] as const)).values()];
  const own = union(allowed.map((m) => keyLanguage(m.form, mode)));
  const others: Array<{ owner: string; language: KeyLanguage; glob?: GlobToken[] }> = [
    ...space.members.filter((m) => !allowed.includes(m)).map((m) => ({ owner: m.owner, language: keyLanguage(m.form), glob: globOf({ ...m.form, tenant: undefined }) })),
    ...(tenant ? allowed.map((m) => ({ owner: `${m.owner} of another tenant`, language: keyLanguage(m.form, 'other') })) : []),
  ];
  const reach = union(globs.map(globLanguage));
  const variants = globs.flatMap((g) => escapedVariants(g, delimiter));
  const languages = new KeyLanguages([own, reach, ...others.map((o) => o.language), ...variants.map(globLanguage), ...others.flatMap((o) => (o.glob ? [globLanguage(o.glob)] : []))]);
  const excluded: GlobToken[][] = [];
  // an allowed pattern reaches another's partition: a key it matches, of the other, that is no allowed key, and not excluded
  const reaches = (other: (typeof others)[number]) => languages.witness([reach, other.language], [own, ...excluded.map(globLanguage)]);
  for (const variant of variants) {
    if (others.some((o) => languages.witness([globLanguage(variant), reach, o.language], [own]) !== undefined)) excluded.push(variant);
  }
  for (const other of others) {
    if (other.glob && reaches(other) !== undefined && languages.witness([own], [globLanguage(other.glob)]) !== undefined) excluded.push(other.glob);
  }
  const notes: string[] = [];
  const shared = others.flatMap((o) => {
    const key = languages.witness([own, o.language]);
    return key === undefined ? [] : [{ owner: o.owner, key }];
  });
  if (shared.length) {
    notes.push(`its partitions also hold items of ${owners(shared.map((s) => s.owner))} (e.g. ${showKey(shared[0]!.key)}): IAM sees only the partition key, so it reaches them too`);
  }
  for (const other of others) {
    const key = reaches(other);
    if (key !== undefined) notes.push(`LeadingKeys also match ${other.owner}'s partition ${showKey(key)}, and no pattern can take it out without refusing all of its own`);
  }
  for (const exclusion of excluded) {
    const key = languages.witness([own, globLanguage(exclusion)]);
    if (key === undefined) continue;
    const member = allowed.find((m) => languages.accepts(keyLanguage(m.form, mode), key))!;
    notes.push(
      `refuses ${member.owner}'s keys that match ${globText(exclusion, tenant?.tag)}, such as ${showKey(key)} (${valuesOf(member.form, key)}): an IAM pattern cannot tell a value's escaped "${delimiter}" from a separator`,
    );
  }
  return {
    leadingKeys: globs.map((g) => globText(g, tenant?.tag)).sort(),
    excludedKeys: unique(excluded.map((g) => globText(g, tenant?.tag))),
    shared: unique(shared.map((s) => s.owner)),
    notes,
  };
}

/** The values a key of `form` holds, for messages: `userId "#admin"`. */
function valuesOf(form: KeyForm, key: string): string {
  const parts = splitKey(key, form.delimiter) ?? [];
  return form.segments
    .flatMap((segment, i) => (segment.kind === 'literal' || segment.kind === 'shard' ? [] : [`${segment.attr} ${JSON.stringify(showKey(parts[i] ?? ''))}`]))
    .join(', ');
}

/** The LeadingKeys conditions of a grant. */
const keyConditions = (keys: ScopedKeys) => ({ leadingKeys: keys.leadingKeys, ...(keys.excludedKeys.length ? { excludedKeys: keys.excludedKeys } : {}) });

/** Key attribute names of the table and of `path`'s index: every index holds them, whatever it projects. */
function keyAttributeNames(table: TableDef, path: AccessPath): string[] {
  const index = path.index;
  if (index?.kind === 'native-gsi') return unique([table.key.pk, table.key.sk, ...index.pk, ...index.sk]);
  return unique([table.key.pk, table.key.sk, index?.kind === 'gsi' ? index.pk : undefined, index?.sk]);
}

/** The Query grant of one access path; undefined when the tenant scope cannot cover its partition key. */
function queryGrant(model: TableModel, policy: string, entity: EntityDef, path: AccessPath, sid: string): Grant | undefined {
  const index = path.index?.name;
  const member = model.member(entity, index);
  if (!member || (model.tenant && member.form.tenant === undefined)) return undefined;
  const projected = path.projection !== 'all';
  return {
    sid,
    actions: dynamodb('Query'),
    ...(index ? { index } : {}),
    ...keyConditions(model.keys(policy, index, [member])),
    ...(projected ? { attributes: unique([...keyAttributeNames(model.table, path), ...(path.projection === 'keys-only' ? [] : path.projection)]), select: PROJECTED_SELECT } : {}),
  };
}

/**
 * The item actions an entity's generated methods send on the table. Every entity: `put` (PutItem)
 * and `batchPut` (BatchWriteItem). Addressable by key: `get`, `batchGet`, `delete`, `batchDelete`,
 * transaction checks (ConditionCheckItem), and UpdateItem when it has something to update. Under
 * random shards: `getAll` / `sum` (BatchGetItem) and `increment` (UpdateItem) when it has them.
 */
function itemActions(scope: EntityScope): { items: string[]; put: boolean; delete: boolean } {
  // an update needs something to change: an attribute outside the key (update, sparse mark/clear, a transaction's update) or a counter
  const updates = (scope.addressable && updateType(scope) !== undefined) || counters(scope).length > 0 ? ['UpdateItem'] : [];
  if (scope.addressable) return { items: dynamodb('GetItem', 'BatchGetItem', ...updates, 'BatchWriteItem', 'ConditionCheckItem'), put: true, delete: true };
  return { items: dynamodb(...(gathersConstant(scope) ? ['BatchGetItem'] : []), ...updates, 'BatchWriteItem'), put: true, delete: false };
}

function entityPolicy(model: TableModel, entity: EntityDef): PolicyModel | undefined {
  const { table, tenant, notes } = model;
  const name = `${table.name}${entity.name}`;
  const member = model.member(entity, undefined)!;
  if (tenant && member.form.tenant === undefined) {
    notes.push(`${table.name}.${entity.name}: its partition key ${entity.key.pk.source} does not name <${tenant.attribute}>, so tenant-scoped policies leave its items out`);
    return undefined;
  }
  const scope = model.scope(entity);
  const keys = keyConditions(model.keys(name, undefined, [member]));
  const actions = itemActions(scope);
  const grants: Grant[] = [
    { sid: `${entity.name}Items`, actions: actions.items, ...keys },
    ...(actions.put ? [{ sid: `${entity.name}Put`, actions: dynamodb('PutItem'), ...keys, returnValues: ['NONE'] }] : []),
    ...(actions.delete ? [{ sid: `${entity.name}Delete`, actions: dynamodb('DeleteItem'), ...keys, returnValues: ['ALL_OLD', 'NONE'] }] : []),
  ];
  // the queries its repository has: the table's and each index's, and the declared patterns'
  const paths = [...queryPaths(scope), ...scope.patterns.map((p) => p.path)];
  const onTable = paths.some((p) => p.index === undefined);
  if (onTable) grants.push(queryGrant(model, name, entity, scope.primary, `${entity.name}Query`)!);
  for (const path of scope.indexPaths) {
    const grant = queryGrant(model, name, entity, path, `${entity.name}Query${pascal(path.index!.name)}`);
    if (grant) grants.push(grant);
    else notes.push(`${table.name}.${entity.name}: index ${path.index!.name}'s partition key ${path.pk.source} does not name <${tenant!.attribute}>, so the tenant-scoped policy leaves query${pascal(path.index!.name)} out`);
  }
  // a native GSI's partition key is several attributes, which dynamodb:LeadingKeys cannot narrow: the grant is the whole index
  for (const index of Object.keys(entity.nativeIndexes ?? {})) {
    if (table.indexes[index]?.kind !== 'native-gsi') continue;
    if (tenant) {
      notes.push(`${table.name}.${entity.name}: native index ${index} is keyed by attributes, not a key string, so the tenant-scoped policy leaves query${pascal(index)} out`);
      continue;
    }
    grants.push({ sid: `${entity.name}Query${pascal(index)}`, actions: dynamodb('Query'), index });
    const others = Object.values(table.entities).filter((e) => e !== entity && e.nativeIndexes?.[index] !== undefined).map((e) => e.name);
    if (others.length) notes.push(`${name} (index ${index}): a native index is keyed by attributes, which LeadingKeys cannot narrow, so it reaches ${others.join(', ')}'s items in it too`);
    model.shares(name, others);
  }
  return {
    name,
    role: 'entity',
    table,
    description: `ddbgen: what ${entity.name}Repository of table ${table.name} sends (${scope.addressable ? 'reads, writes, transactions' : 'writes, gathered reads'}, its queries), on ${entity.name} partitions only`,
    grants,
    sharesWith: model.shares(name),
  };
}

/** An edge's repository: its items live in the partitions of its node types (each node entity's partition key); incoming links may come from its inverse GSI. */
function edgePolicy(model: TableModel, edge: EdgeDef): PolicyModel | undefined {
  const { table, tenant } = model;
  const name = `${table.name}${edge.name}`;
  const nodes = model.edgeMembers(edge, undefined);
  if (tenant && nodes.some((n) => n.form.tenant === undefined)) {
    model.notes.push(`${table.name}.${edge.name}: edge items live in the partitions of ${edge.types.join(', ')}, not all of whose keys name <${tenant.attribute}>, so tenant-scoped policies leave the edge out`);
    return undefined;
  }
  const keys = keyConditions(model.keys(name, undefined, nodes));
  const grants: Grant[] = [
    { sid: `${edge.name}Reads`, actions: dynamodb('GetItem', 'Query'), ...keys },
    { sid: `${edge.name}Writes`, actions: dynamodb('PutItem', 'DeleteItem'), ...keys, returnValues: ['NONE'] },
  ];
  if (edge.inverseIndex !== undefined) {
    grants.push({ sid: `${edge.name}Incoming`, actions: dynamodb('Query'), index: edge.inverseIndex, ...keyConditions(model.keys(name, edge.inverseIndex, model.edgeMembers(edge, edge.inverseIndex))) });
  }
  return {
    name,
    role: 'edge',
    table,
    description: `ddbgen: what edge ${edge.name} of table ${table.name} sends (add, remove, get, exists, outgoing, incoming, count), on the partitions of ${edge.types.join(', ')}`,
    grants,
    sharesWith: model.shares(name),
  };
}

function patternPolicy(model: TableModel, resolved: ResolvedPattern): PolicyModel | undefined {
  const { pattern, entity, path } = resolved;
  const { table, tenant } = model;
  const name = `${table.name}${entity.name}${pascal(pattern.name)}`;
  const grant = queryGrant(model, name, entity, path, `${pascal(pattern.name)}Query`);
  if (!grant) {
    model.notes.push(`${table.name}.patterns.${pattern.name}: its partition key ${path.pk.source} does not name <${tenant!.attribute}>, so no tenant-scoped policy is emitted for it`);
    return undefined;
  }
  return {
    name,
    role: 'pattern',
    table,
    description: `ddbgen: access pattern ${pattern.name} of table ${table.name} (${entity.name}.${pattern.name}): one Query on ${path.index ? `index ${path.index.name}` : 'the table'}, ${path.pk.source} partitions only`,
    grants: [grant],
    sharesWith: model.shares(name),
  };
}

/** Table-wide roles: every item without a tenant scope; with one, the partitions whose keys name the tenant (no Scan: it cannot be scoped). */
function tablePolicies(model: TableModel): PolicyModel[] {
  const { table, tenant, notes } = model;
  const role = (suffix: string) => `${table.name}${suffix}`;
  /** With a tenant scope: the LeadingKeys conditions of a key space's tenant members; undefined: none there. */
  const scoped = (policy: string, index: string | undefined): Pick<Grant, 'leadingKeys' | 'excludedKeys'> | undefined => {
    if (!tenant) return {};
    const members = model.space(index).members.filter((m) => m.form.tenant !== undefined);
    return members.length ? keyConditions(model.keys(policy, index, members)) : undefined;
  };
  if (tenant) notes.push(`${table.name}: tenant-scoped table roles leave Scan (scanSegments) out: a scan reads every partition`);
  const reads = (policy: string): Grant[] => {
    const tableKeys = scoped(policy, undefined);
    const grants: Grant[] = tableKeys ? [{ sid: 'TableReads', actions: dynamodb('GetItem', 'BatchGetItem', 'Query', ...(tenant ? [] : ['Scan'])), ...tableKeys }] : [];
    for (const [name, index] of Object.entries(table.indexes)) {
      if (tenant && index.kind === 'native-gsi') continue;
      const keys = scoped(policy, name);
      if (keys) grants.push({ sid: `Query${pascal(name)}`, actions: dynamodb('Query'), index: name, ...keys });
    }
    return grants;
  };
  const tableKeys = scoped(role('Writer'), undefined);
  if (!tableKeys) return [];
  const writes: Grant = { sid: 'TableWrites', actions: dynamodb('PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'ConditionCheckItem'), ...tableKeys };
  const which = tenant ? `partitions whose keys hold the caller's ${tenant.tag} tag` : 'every item';
  const readOnly = reads(role('ReadOnly'));
  const writer = [...reads(role('Writer')), writes];
  return [
    { name: role('ReadOnly'), role: 'read-only', table, description: `ddbgen: read-only access to table ${table.name} and its indexes (${which})`, grants: readOnly, sharesWith: model.shares(role('ReadOnly')) },
    { name: role('Writer'), role: 'writer', table, description: `ddbgen: read and write access to table ${table.name} through its generated repositories (${which})`, grants: writer, sharesWith: model.shares(role('Writer')) },
  ];
}

/** A consumer of the table's stream (a Lambda event source mapping's function role, a KCL worker): reads the stream's records, nothing of the table. */
function streamPolicy(model: TableModel): PolicyModel | undefined {
  const { table, tenant } = model;
  if (table.stream === undefined) return undefined;
  if (tenant) {
    model.notes.push(`${table.name}: its stream carries every tenant's changes, so tenant-scoped policies leave the stream consumer out`);
    return undefined;
  }
  return {
    name: `${table.name}StreamConsumer`,
    role: 'stream-consumer',
    table,
    description: `ddbgen: a consumer of table ${table.name}'s stream (DescribeStream, GetShardIterator, GetRecords on the stream only)`,
    grants: [{ sid: 'StreamRecords', actions: dynamodb('DescribeStream', 'GetShardIterator', 'GetRecords'), stream: true }],
    sharesWith: [],
  };
}

/** Every policy of the tables: table roles, then one per entity, one per edge, one per declared pattern, and the stream consumer's. */
export function iamPolicies(tables: readonly TableDef[], options: IamOptions = {}): IamPlan {
  const notes: string[] = [];
  const policies: PolicyModel[] = [];
  for (const table of tables) {
    const model = new TableModel(table, options.tenant, notes);
    policies.push(...tablePolicies(model));
    for (const entity of Object.values(table.entities)) {
      const policy = entityPolicy(model, entity);
      if (policy) policies.push(policy);
    }
    for (const edge of Object.values(table.edges)) {
      const policy = edgePolicy(model, edge);
      if (policy) policies.push(policy);
    }
    for (const pattern of Object.values(table.patterns)) {
      const resolved = resolvePattern(table, pattern);
      if (typeof resolved === 'string') continue;
      const policy = patternPolicy(model, resolved);
      if (policy) policies.push(policy);
    }
    const stream = streamPolicy(model);
    if (stream) policies.push(stream);
  }
  // names are unique: a policy whose name another has already (an entity called ReadOnly, an edge named like an entity) takes its role as a suffix
  const counts = new Map<string, number>();
  for (const p of policies) counts.set(p.name, (counts.get(p.name) ?? 0) + 1);
  const named = policies.map((p) => (counts.get(p.name)! > 1 && p.role !== 'read-only' && p.role !== 'writer' && p.role !== 'stream-consumer' ? { ...p, name: `${p.name}${pascal(p.role)}` } : p));
  return { policies: named, notes };
}

/** The placeholders a tenant scope may name: those of some partition-key template of the tables. */
export function partitionPlaceholders(tables: readonly TableDef[]): string[] {
  const names = tables.flatMap((table) =>
    Object.values(table.entities).flatMap((entity) =>
      [entity.key.pk, ...Object.values(entity.indexes).map((m) => m.pk)].flatMap((template) =>
        (template?.segments ?? []).flatMap((s) => (s.kind === 'placeholder' && s.name !== 'shard' ? [s.name] : [])),
      ),
    ),
  );
  return unique(names);
}
