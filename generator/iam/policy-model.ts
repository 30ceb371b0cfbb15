// Least-privilege IAM from the schema, as data: one policy per declared access pattern, per entity
// repository and per table role (read-only, writer), each statement holding exactly the DynamoDB
// actions the generated methods send, on the table or index they send them to, narrowed by
// dynamodb:LeadingKeys (partition-key templates, escaped for IAM, shard suffixes as `?` wildcards,
// a tenant placeholder as a principal tag), dynamodb:Attributes / dynamodb:Select on projected
// indexes and dynamodb:ReturnValues where a write returns nothing or only the old item. Pure; the
// output formats (iam-formats.ts) only print it.

import type { EdgeDef, EntityDef, ShardDef, TableDef, TemplateDef } from '../../dsl/ir.js';
import { indexAccess, resolvePattern, tableAccess, type AccessPath, type ResolvedPattern } from '../model/access-paths.js';

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
  /** `ForAllValues:StringLike` on dynamodb:LeadingKeys (with a Null check so the key must be there); undefined: any partition. */
  readonly leadingKeys?: readonly string[];
  /** `ForAllValues:StringEquals` on dynamodb:Attributes: the attributes a projected index holds. */
  readonly attributes?: readonly string[];
  /** `StringEqualsIfExists` on dynamodb:Select. */
  readonly select?: readonly string[];
  /** `StringEqualsIfExists` on dynamodb:ReturnValues. */
  readonly returnValues?: readonly string[];
}

export type PolicyRole = 'read-only' | 'writer' | 'entity' | 'edge' | 'pattern';

export interface PolicyModel {
  /** `SocialReadOnly`, `SocialWriter`, `SocialArticle` (entity), `SocialFan` (edge), `SocialArticleRecentArticles` (pattern). */
  readonly name: string;
  readonly role: PolicyRole;
  readonly table: TableDef;
  readonly description: string;
  readonly grants: readonly Grant[];
}

export interface IamPlan {
  readonly policies: readonly PolicyModel[];
  /** What a tenant scope leaves out, one sentence each. */
  readonly notes: readonly string[];
}

const dynamodb = (...actions: string[]) => actions.map((a) => `dynamodb:${a}`);
const READS = dynamodb('GetItem', 'BatchGetItem');
const ITEM_WRITES = dynamodb('UpdateItem', 'BatchWriteItem', 'ConditionCheckItem');
const PROJECTED_SELECT = ['ALL_PROJECTED_ATTRIBUTES', 'SPECIFIC_ATTRIBUTES', 'COUNT'];
const pascal = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

/** Literal key text as an IAM string pattern: `*`, `?` and `$` are written `${*}`, `${?}`, `${$}`. */
export function iamLiteral(text: string): string {
  return text.replace(/[*?$]/g, (c) => `\${${c}}`);
}

/** The dynamodb:LeadingKeys pattern of a partition-key template, or undefined when a tenant scope applies and the template does not name the tenant. */
export function leadingKeyPattern(template: TemplateDef, delimiter: string, shard: ShardDef | undefined, tenant?: TenantScope): string | undefined {
  if (tenant && !template.segments.some((s) => s.kind === 'placeholder' && s.name === tenant.attribute)) return undefined;
  return template.segments
    .map((segment) => {
      if (segment.kind === 'literal') return iamLiteral(segment.text);
      // one `?` per digit of the zero-padded suffix start..start+count-1
      if (segment.name === 'shard') return '?'.repeat(String((shard?.start ?? 0) + (shard?.count ?? 10) - 1).length);
      if (tenant && segment.name === tenant.attribute) return `\${aws:PrincipalTag/${tenant.tag}}`;
      return '*';
    })
    .join(iamLiteral(delimiter));
}

const unique = (values: ReadonlyArray<string | undefined>) => [...new Set(values.filter((v): v is string => v !== undefined))].sort();

/** Key attribute names of the table and of `path`'s index: every index holds them, whatever it projects. */
function keyAttributeNames(table: TableDef, path: AccessPath): string[] {
  const index = path.index;
  if (index?.kind === 'native-gsi') return unique([table.key.pk, table.key.sk, ...index.pk, ...index.sk]);
  return unique([table.key.pk, table.key.sk, index?.kind === 'gsi' ? index.pk : undefined, index?.sk]);
}

/** The Query grant of one access path; undefined when the tenant scope cannot cover its partition key. */
function queryGrant(table: TableDef, entity: EntityDef, path: AccessPath, sid: string, options: IamOptions): Grant | undefined {
  const shard = path.index === undefined || path.index.kind === 'lsi' ? entity.key.shard : entity.indexes[path.index.name]?.shard;
  const pattern = leadingKeyPattern(path.pk, table.delimiter, shard, options.tenant);
  if (pattern === undefined) return undefined;
  const projected = path.projection !== 'all';
  return {
    sid,
    actions: dynamodb('Query'),
    ...(path.index ? { index: path.index.name } : {}),
    leadingKeys: [pattern],
    ...(projected ? { attributes: unique([...keyAttributeNames(table, path), ...(path.projection === 'keys-only' ? [] : path.projection)]), select: PROJECTED_SELECT } : {}),
  };
}

function entityPolicy(table: TableDef, entity: EntityDef, options: IamOptions, notes: string[]): PolicyModel | undefined {
  const key = leadingKeyPattern(entity.key.pk, table.delimiter, entity.key.shard, options.tenant);
  if (key === undefined) {
    notes.push(`${table.name}.${entity.name}: its partition key ${entity.key.pk.source} does not name <${options.tenant!.attribute}>, so tenant-scoped policies leave its items out`);
    return undefined;
  }
  const grants: Grant[] = [
    { sid: `${entity.name}Items`, actions: [...READS, ...ITEM_WRITES], leadingKeys: [key] },
    { sid: `${entity.name}Put`, actions: dynamodb('PutItem'), leadingKeys: [key], returnValues: ['NONE'] },
    { sid: `${entity.name}Delete`, actions: dynamodb('DeleteItem'), leadingKeys: [key], returnValues: ['ALL_OLD', 'NONE'] },
  ];
  const primary = tableAccess(entity);
  const patternsOnTable = Object.values(table.patterns).some((p) => p.entity === entity.name && p.index === undefined);
  if (primary.sort.length > 0 || patternsOnTable) grants.push(queryGrant(table, entity, primary, `${entity.name}Query`, options)!);
  for (const index of Object.keys(entity.indexes)) {
    const path = indexAccess(table, entity, index);
    if (!path) continue;
    const grant = queryGrant(table, entity, path, `${entity.name}Query${pascal(index)}`, options);
    if (grant) grants.push(grant);
    else notes.push(`${table.name}.${entity.name}: index ${index}'s partition key ${path.pk.source} does not name <${options.tenant!.attribute}>, so the tenant-scoped policy leaves query${pascal(index)} out`);
  }
  // a native GSI's partition key is several attributes, which dynamodb:LeadingKeys cannot narrow: the grant is the whole index
  for (const index of Object.keys(entity.nativeIndexes ?? {})) {
    if (table.indexes[index]?.kind !== 'native-gsi') continue;
    if (options.tenant) notes.push(`${table.name}.${entity.name}: native index ${index} is keyed by attributes, not a key string, so the tenant-scoped policy leaves query${pascal(index)} out`);
    else grants.push({ sid: `${entity.name}Query${pascal(index)}`, actions: dynamodb('Query'), index });
  }
  return {
    name: `${table.name}${entity.name}`,
    role: 'entity',
    table,
    description: `ddbgen: what ${entity.name}Repository of table ${table.name} sends (reads, writes, transactions, its queries), on ${entity.name} partitions only`,
    grants,
  };
}

/** An edge's repository: its items live in the partitions of its node types (`<type><delimiter><id>`); incoming links may come from its inverse GSI. */
function edgePolicy(table: TableDef, edge: EdgeDef): PolicyModel {
  const keys = edge.types.map((type) => `${iamLiteral(type)}${iamLiteral(table.delimiter)}*`);
  const grants: Grant[] = [
    { sid: `${edge.name}Reads`, actions: dynamodb('GetItem', 'Query'), leadingKeys: keys },
    { sid: `${edge.name}Writes`, actions: dynamodb('PutItem', 'DeleteItem'), leadingKeys: keys, returnValues: ['NONE'] },
  ];
  if (edge.inverseIndex !== undefined) grants.push({ sid: `${edge.name}Incoming`, actions: dynamodb('Query'), index: edge.inverseIndex, leadingKeys: keys });
  return {
    name: `${table.name}${edge.name}`,
    role: 'edge',
    table,
    description: `ddbgen: what edge ${edge.name} of table ${table.name} sends (add, remove, get, exists, outgoing, incoming, count), on the partitions of ${edge.types.join(', ')}`,
    grants,
  };
}

function patternPolicy(table: TableDef, resolved: ResolvedPattern, options: IamOptions, notes: string[]): PolicyModel | undefined {
  const { pattern, entity, path } = resolved;
  const grant = queryGrant(table, entity, path, `${pascal(pattern.name)}Query`, options);
  if (!grant) {
    notes.push(`${table.name}.patterns.${pattern.name}: its partition key ${path.pk.source} does not name <${options.tenant!.attribute}>, so no tenant-scoped policy is emitted for it`);
    return undefined;
  }
  return {
    name: `${table.name}${entity.name}${pascal(pattern.name)}`,
    role: 'pattern',
    table,
    description: `ddbgen: access pattern ${pattern.name} of table ${table.name} (${entity.name}.${pattern.name}): one Query on ${path.index ? `index ${path.index.name}` : 'the table'}, ${path.pk.source} partitions only`,
    grants: [grant],
  };
}

/** Table-wide roles: every item without a tenant scope; with one, the partitions whose keys name the tenant (no Scan: it cannot be scoped). */
function tablePolicies(table: TableDef, options: IamOptions, notes: string[]): PolicyModel[] {
  const tenant = options.tenant;
  let tableKeys: string[] | undefined;
  const indexKeys = new Map<string, string[] | undefined>(Object.keys(table.indexes).map((name) => [name, undefined]));
  if (tenant) {
    tableKeys = unique(Object.values(table.entities).map((e) => leadingKeyPattern(e.key.pk, table.delimiter, e.key.shard, tenant)));
    for (const name of Object.keys(table.indexes)) {
      const patterns = Object.values(table.entities).map((e) => {
        const path = indexAccess(table, e, name);
        return path ? leadingKeyPattern(path.pk, table.delimiter, path.index?.kind === 'gsi' ? e.indexes[name]?.shard : e.key.shard, tenant) : undefined;
      });
      indexKeys.set(name, unique(patterns));
    }
    if (Object.keys(table.edges).length) notes.push(`${table.name}: edge items are keyed <type>${table.delimiter}<id> and name no tenant, so tenant-scoped table roles leave edges out`);
    notes.push(`${table.name}: tenant-scoped table roles leave Scan (scanSegments) out: a scan reads every partition`);
  }
  const scoped = (keys: string[] | undefined) => (keys === undefined ? {} : { leadingKeys: keys });
  const reads: Grant[] = [{ sid: 'TableReads', actions: [...READS, ...dynamodb('Query'), ...(tenant ? [] : dynamodb('Scan'))], ...scoped(tableKeys) }];
  for (const [name, keys] of indexKeys) {
    if (keys?.length === 0) continue;
    reads.push({ sid: `Query${pascal(name)}`, actions: dynamodb('Query'), index: name, ...scoped(keys) });
  }
  if (tableKeys?.length === 0) return [];
  const writes: Grant[] = [{ sid: 'TableWrites', actions: dynamodb('PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'ConditionCheckItem'), ...scoped(tableKeys) }];
  const which = tenant ? `partitions whose keys hold the caller's ${tenant.tag} tag` : 'every item';
  return [
    { name: `${table.name}ReadOnly`, role: 'read-only', table, description: `ddbgen: read-only access to table ${table.name} and its indexes (${which})`, grants: reads },
    { name: `${table.name}Writer`, role: 'writer', table, description: `ddbgen: read and write access to table ${table.name} through its generated repositories (${which})`, grants: [...reads, ...writes] },
  ];
}

/** Every policy of the tables: table roles, then one per entity, one per edge (none under a tenant scope), one per declared pattern. */
export function iamPolicies(tables: readonly TableDef[], options: IamOptions = {}): IamPlan {
  const notes: string[] = [];
  const policies: PolicyModel[] = [];
  for (const table of tables) {
    policies.push(...tablePolicies(table, options, notes));
    for (const entity of Object.values(table.entities)) {
      const policy = entityPolicy(table, entity, options, notes);
      if (policy) policies.push(policy);
    }
    if (!options.tenant) policies.push(...Object.values(table.edges).map((edge) => edgePolicy(table, edge)));
    for (const pattern of Object.values(table.patterns)) {
      const resolved = resolvePattern(table, pattern);
      if (typeof resolved === 'string') continue;
      const policy = patternPolicy(table, resolved, options, notes);
      if (policy) policies.push(policy);
    }
  }
  // names are unique: a policy whose name another has already (an entity called ReadOnly, an edge named like an entity) takes its role as a suffix
  const counts = new Map<string, number>();
  for (const p of policies) counts.set(p.name, (counts.get(p.name) ?? 0) + 1);
  const named = policies.map((p) => (counts.get(p.name)! > 1 && p.role !== 'read-only' && p.role !== 'writer' ? { ...p, name: `${p.name}${pascal(p.role)}` } : p));
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
