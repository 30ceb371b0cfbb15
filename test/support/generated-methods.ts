// Every generated method of the fixtures' tables, found by reflection and made runnable: each
// repository, edge and table object of a generated table class, each public method its class
// declares (public-methods.ts) and each step of a transaction. A method runs as its doc `@example`
// is written, or from a recipe by method family with sample values of the schema; a method with
// neither is reported, so a new method cannot go unchecked. Run through a recording client, each
// method's commands become the authorization requests IAM evaluates (iam-evaluator.ts).
import path from 'node:path';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AttributeDef, EntityDef, TableDef } from '../../dsl/ir.js';
import clicks from '../../fixtures/time-series.js';
import fans from '../../fixtures/fans.js';
import saas from '../../fixtures/saas.js';
import seams from '../../fixtures/seams.js';
import seeds from '../../fixtures/seeds.js';
import sessions from '../../fixtures/sessions.js';
import social from '../../fixtures/social.js';
import storedFormats from '../../fixtures/stored-formats.js';
import tenants from '../../fixtures/tenants.js';
import type { IamPlan } from '../../generator/iam/policy-model.js';
import { shardInputs, templateAttributes } from '../../generator/model/key-segments.js';
import { ClicksTable } from '../../out/clicks/index.js';
import { FansTable } from '../../out/fans/index.js';
import { SaasTable } from '../../out/saas/index.js';
import { SeamsTable } from '../../out/seams/index.js';
import { SeedsTable } from '../../out/seeds/index.js';
import { SessionsTable } from '../../out/sessions/index.js';
import { SocialTable } from '../../out/social/index.js';
import { StoredFormatsTable } from '../../out/stored-formats/index.js';
import { TenantsTable } from '../../out/tenants/index.js';
import { WeeklyTable } from '../../out/weekly/index.js';
import { examplesIn, runnable, type Example } from './doc-examples.js';
import { requestsOf, type IamRequest } from './iam-evaluator.js';
import { publicMethods } from './public-methods.js';
import { recordingClient } from './recording-client.js';

const root = path.resolve(import.meta.dirname, '../..');

export interface Fixture {
  readonly folder: string;
  readonly table: TableDef;
  /** The generated table class; a rotated one is made for the sample instant's period (`forTime`). */
  readonly Table: (new (client: DynamoDBDocumentClient, options?: never) => object) & { forTime?: (client: DynamoDBDocumentClient, at: Date, options?: never) => object };
  /** The placeholder a tenant-scoped run names. */
  readonly tenant?: string;
}

const [seedsTable, weeklyTable] = seeds;
export const FIXTURES: readonly Fixture[] = [
  { folder: 'social', table: social, Table: SocialTable, tenant: 'userId' },
  { folder: 'tenants', table: tenants, Table: TenantsTable, tenant: 'tenantId' },
  { folder: 'seeds', table: seedsTable!, Table: SeedsTable },
  { folder: 'weekly', table: weeklyTable!, Table: WeeklyTable },
  { folder: 'fans', table: fans, Table: FansTable },
  { folder: 'sessions', table: sessions, Table: SessionsTable, tenant: 'userId' },
  { folder: 'clicks', table: clicks, Table: ClicksTable },
  { folder: 'saas', table: saas, Table: SaasTable, tenant: 'tenantId' },
  { folder: 'seams', table: seams, Table: SeamsTable, tenant: 'tenantId' },
  { folder: 'stored-formats', table: storedFormats, Table: StoredFormatsTable },
];

// ---- sample values and recipes ----------------------------------------------------------------

const SAMPLE_INSTANT = new Date(Date.UTC(2024, 0, 15, 9, 30));

/** The fixture's table object over `client`: for a rotated table, the table of the sample instant's period. */
const tableOf = (fixture: Fixture, client: DynamoDBDocumentClient, options?: object) =>
  (fixture.Table.forTime ? fixture.Table.forTime(client, SAMPLE_INSTANT, options as never) : new fixture.Table(client, options as never)) as Record<string, never>;

/** Sample values given instead of the usual ones, by attribute name (another tenant's id, a hostile value); JSON values, as examples are code text. */
type Overrides = Readonly<Record<string, unknown>>;

/** A sample value: a string is its attribute's name and `-1` (so the tenant's sample is `tenantId-1` everywhere). */
function sample(name: string, def: AttributeDef, overrides: Overrides = {}): unknown {
  if (overrides[name] !== undefined) return overrides[name];
  switch (def.kind) {
    case 'enum':
      return def.values[0];
    case 'number':
      return Math.max(def.min ?? 1, Math.min(def.max ?? 1, 1));
    case 'boolean':
      return true;
    case 'timestamp':
      return SAMPLE_INSTANT;
    case 'stringSet':
      return new Set([`${name}-1`]);
    case 'numberSet':
      return new Set([1]);
    case 'list':
      return [];
    case 'map':
      return Object.fromEntries(Object.entries(def.fields).filter(([, f]) => !f.optional).map(([field, f]) => [field, sample(field, f)]));
    case 'binary':
      return new Uint8Array([1]);
    default:
      return `${name}-1`;
  }
}

const required = (attributes: Readonly<Record<string, AttributeDef>>) => Object.keys(attributes).filter((a) => !attributes[a]!.optional);
const sampleOf = (attributes: Readonly<Record<string, AttributeDef>>, names: readonly string[], overrides: Overrides) =>
  Object.fromEntries(names.map((name) => [name, sample(name, attributes[name]!, overrides)]));

/** The attributes an entity's primary key reads. */
const keyParts = (entity: EntityDef) => [...new Set([...templateAttributes(entity.key.pk), ...(entity.key.sk ? templateAttributes(entity.key.sk) : []), ...(entity.key.shard ? shardInputs(entity, entity.key.shard) : [])])];
const keyOf = (entity: EntityDef, overrides: Overrides) => sampleOf(entity.attributes, keyParts(entity), overrides);

type Call = (db: Record<string, never>) => Promise<unknown>;
type Target = Record<string, (...args: unknown[]) => unknown>;

/** Calls `member.method(args)`, or iterates its first page when it returns an async iterator. */
const invoke = (member: string, method: string, args: readonly unknown[]): Call => async (db) => {
  const result = (db[member] as unknown as Target)[method]!(...args);
  if (result && typeof result === 'object' && Symbol.asyncIterator in result) {
    for await (const _ of result as AsyncIterable<unknown>) break;
    return;
  }
  return result;
};

/** The arguments of an entity repository method by family, or undefined for a family it does not know. */
function entityArgs(entity: EntityDef, method: string, overrides: Overrides): unknown[] | undefined {
  const key = keyOf(entity, overrides);
  const item = sampleOf(entity.attributes, required(entity.attributes), overrides);
  const versioned = entity.version === undefined ? [] : [{ expectedVersion: 1 }];
  const mutable = mutableOf(entity);
  switch (method) {
    case 'put':
    case 'create':
    case 'replace':
      return [item];
    case 'batchPut':
      return [[item]];
    case 'get':
    case 'delete':
      return [key, ...versioned];
    case 'batchGet':
    case 'batchDelete':
      return [[key]];
    case 'update':
      // every attribute outside the key, so that an index key fed by one is rebuilt whole
      return [key, { set: sampleOf(entity.attributes, mutable, overrides) }, ...versioned];
    case 'increment':
      return [key, Object.fromEntries(mutable.filter((a) => entity.attributes[a]!.kind === 'number').map((a) => [a, 1]))];
    case 'getAll':
    case 'sum':
    case 'query':
    case 'queryAll':
      return [key];
    default:
      return undefined;
  }
}

/** The arguments of an edge method: from the first node type to the last, with the edge's attributes. */
function edgeArgs(table: TableDef, edgeName: string, method: string, overrides: Overrides): unknown[] | undefined {
  const edge = table.edges[edgeName]!;
  const node = (type: string) => {
    const entity = table.entities[type]!;
    const parts = templateAttributes(entity.key.pk);
    const id = sampleOf(entity.attributes, parts, overrides);
    return { type, id: parts.length === 1 ? id[parts[0]!] : id };
  };
  const from = node(edge.types[0]!);
  const to = node(edge.types[edge.types.length - 1]!);
  const attributes = sampleOf(edge.attributes, required(edge.attributes), overrides);
  return {
    add: [from, to, attributes],
    remove: [from, to],
    get: [from, to],
    exists: [from, to],
    outgoing: [from],
    incoming: [to],
    count: ['outgoing', from],
    addMany: [[{ from, to, attributes }]],
    removeMany: [[{ from, to }]],
  }[method];
}

/** Attributes an update may change: outside the key, not the version. */
const mutableOf = (entity: EntityDef) => Object.keys(entity.attributes).filter((a) => !keyParts(entity).includes(a) && a !== entity.version);

/** One transaction step of an entity, committed. */
function transactionStep(entity: EntityDef, member: string, step: string, overrides: Overrides): Call | undefined {
  const args = step === 'check' ? [keyOf(entity, overrides), { [keyParts(entity)[0]!]: { exists: true } }] : entityArgs(entity, step, overrides);
  if (!args) return undefined;
  return async (db) => {
    const tx = (db as unknown as { transaction: () => Record<string, Target> }).transaction();
    await (tx[member]![step]!(...args) as { commit: () => Promise<void> }).commit();
  };
}

// ---- the methods, found by reflection ---------------------------------------------------------

export interface Unit {
  /** `db.article.get`, `db.transaction().article.check`. */
  readonly id: string;
  /** The entity or `edge Fan` whose items it reads or writes; undefined for a scan. */
  readonly owner: string | undefined;
  /** A repository or edge method (its owner's policy sends it), or a table-wide read (collection, scan). */
  readonly kind: 'entity' | 'edge' | 'table';
  readonly method: string;
  readonly call: Call | undefined;
  /** Why the method sends nothing (it must then send nothing): a transaction's update of an entity with nothing to update. */
  readonly sendsNothing?: string;
}

const lowerFirst = (name: string) => name.charAt(0).toLowerCase() + name.slice(1);

/** An example's call with the overridden samples' values in place of the usual ones. */
function exampleCall(example: Example, overrides: Overrides): Call {
  const call = Object.entries(overrides).reduce((text, [name, value]) => text.replaceAll(`'${name}-1'`, JSON.stringify(value)), example.call);
  return runnable({ ...example, call }) as Call;
}

function unitsOf(fixture: Fixture, overrides: Overrides): Unit[] {
  const { table } = fixture;
  const folder = path.join(root, 'out', fixture.folder);
  const db = tableOf(fixture, recordingClient().client) as Record<string, unknown>;
  const units: Unit[] = [];
  const examples = (file: string) => new Map(examplesIn(file).map((e) => [e.method, e]));
  const entityOf = (member: string) => Object.values(table.entities).find((e) => lowerFirst(e.name) === member);
  const edgeOf = (member: string) => Object.values(table.edges).find((e) => lowerFirst(e.name) === member);
  for (const [member, value] of Object.entries(db)) {
    if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) === Object.prototype) continue;
    const { file, methods } = publicMethods(folder, value.constructor.name);
    const documented = examples(file);
    const entity = entityOf(member);
    const edge = edgeOf(member);
    if (!entity && !edge) throw new Error(`${fixture.folder}: db.${member} is neither an entity's repository nor an edge`);
    for (const method of methods) {
      const example = documented.get(method);
      const base = method.endsWith('All') ? method.slice(0, -3) : method;
      const args = entity ? entityArgs(entity, method, overrides) : edgeArgs(table, edge!.name, method, overrides);
      const fromBase = method !== base ? (documented.get(base) ? undefined : entity ? entityArgs(entity, base, overrides) : undefined) : undefined;
      const call = example ? exampleCall(example, overrides) : args ? invoke(member, method, args) : fromBase ? invoke(member, method, fromBase) : undefined;
      units.push({ id: `db.${member}.${method}`, owner: entity ? entity.name : `edge ${edge!.name}`, kind: entity ? 'entity' : 'edge', method, call });
    }
  }
  const { file, methods } = publicMethods(folder, db.constructor.name);
  const documented = examples(file);
  for (const method of methods) {
    if (method === 'transaction') {
      // each step of each entity the transaction takes, committed alone
      const tx = (db['transaction'] as () => Record<string, unknown>)();
      for (const [member, steps] of Object.entries(tx)) {
        const entity = entityOf(member);
        if (!entity || typeof steps !== 'object' || steps === null) continue;
        for (const step of publicMethods(folder, steps.constructor.name).methods) {
          const nothing = step === 'update' && mutableOf(entity).length === 0 ? { sendsNothing: 'every attribute is a key part' } : {};
          units.push({ id: `db.transaction().${member}.${step}`, owner: entity.name, kind: 'entity', method: step, call: transactionStep(entity, member, step, overrides), ...nothing });
        }
      }
      continue;
    }
    const example = documented.get(method);
    const collection = /^(\w+)Collection$/.exec(method);
    units.push({
      id: `db.${method}`,
      owner: collection ? Object.values(table.entities).find((e) => lowerFirst(e.name) === collection[1])?.name : undefined,
      kind: 'table',
      method,
      call: example ? exampleCall(example, overrides) : undefined,
    });
  }
  return units;
}

// ---- running and evaluating -------------------------------------------------------------------

export const arnOf = (table: string, index?: string) => `arn:aws:dynamodb:eu-west-1:123456789012:table/${table}${index === undefined ? '' : `/index/${index}`}`;

/** The partition-key attribute of the table or an index ('' for a native index: several attributes, no LeadingKeys). */
const partitionKeyOf = (table: TableDef) => (index?: string) => {
  const def = index === undefined ? undefined : table.indexes[index];
  return def?.kind === 'gsi' ? def.pk : def?.kind === 'native-gsi' ? '' : table.key.pk;
};

export interface Ran {
  readonly unit: Unit;
  readonly requests: IamRequest[];
}

/** What one unit did: the commands it sent and the error it threw, if any. */
export interface Outcome {
  readonly unit: Unit;
  readonly sent: ReadonlyArray<{ readonly name: string; readonly input: Record<string, unknown> }>;
  readonly error: unknown;
}

/** Runs every unit that has a call, each against its own recording client, and says what each did. */
export async function runEach(fixture: Fixture, overrides: Overrides = {}, options?: () => object): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const unit of unitsOf(fixture, overrides)) {
    if (!unit.call) continue;
    const { client, sent } = recordingClient();
    let error: unknown;
    await unit.call(tableOf(fixture, client, options?.())).catch((e: unknown) => (error = e));
    outcomes.push({ unit, sent, error });
  }
  return outcomes;
}

/** Runs every unit; a unit without a recipe, or that sends nothing, is a failure. */
export async function run(fixture: Fixture, principal: Record<string, string> = {}, overrides: Overrides = {}): Promise<{ ran: Ran[]; failures: string[] }> {
  const ran: Ran[] = [];
  const failures: string[] = [];
  for (const unit of unitsOf(fixture, overrides)) {
    if (!unit.call) {
      failures.push(`${unit.id}: no example and no recipe`);
      continue;
    }
    const { client, sent } = recordingClient();
    let error: unknown;
    // the answers are empty: a method may fail on them afterwards (no item to update); only what it sent matters
    await unit.call(tableOf(fixture, client)).catch((e: unknown) => (error = e));
    if (unit.sendsNothing !== undefined) {
      if (sent.length > 0 || error === undefined) failures.push(`${unit.id}: should refuse to send anything (${unit.sendsNothing})`);
      continue;
    }
    if (sent.length === 0) {
      failures.push(`${unit.id}: sent nothing${error ? ` (${String(error)})` : ''}`);
      continue;
    }
    ran.push({ unit, requests: sent.flatMap((command) => requestsOf(command, arnOf, partitionKeyOf(fixture.table), principal)) });
  }
  return { ran, failures };
}

export const READS = new Set(['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:Scan']);
export const resourceOf = (request: IamRequest) => request.resource.replace(/^.*:table\/[^/]+/, '') || 'table';
export const show = (request: IamRequest) => `${request.action} ${resourceOf(request)} ${JSON.stringify(request.context['dynamodb:LeadingKeys'] ?? [])}`;

/** The policies meant to send a unit's requests, by name. */
export function meant(fixture: Fixture, plan: IamPlan, unit: Unit, reads: boolean): string[] {
  const name = fixture.table.name;
  const names = [`${name}Writer`, ...(reads ? [`${name}ReadOnly`] : [])];
  if (unit.kind !== 'table') {
    const owner = plan.policies.find((p) => (unit.kind === 'entity' ? p.role === 'entity' : p.role === 'edge') && `${unit.kind === 'edge' ? 'edge ' : ''}${p.name.slice(name.length).replace(/(Entity|Edge)$/, '')}` === unit.owner);
    if (owner) names.push(owner.name);
    const pattern = fixture.table.patterns[unit.method.replace(/All$/, '')];
    if (pattern && pattern.entity === unit.owner) names.push(...plan.policies.filter((p) => p.role === 'pattern' && p.description.includes(`(${pattern.entity}.${pattern.name})`)).map((p) => p.name));
  }
  return names;
}

