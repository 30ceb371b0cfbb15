// Models written with the peer libraries themselves, as their documentation's example apps are
// shaped (several entities, a GSI, a collection): ElectroDB's task manager (employees, tasks and
// offices of one service), DynamoDB-Toolbox v2's trainers and their pokemon, OneTable's accounts with
// their users and invoices. test/connected/peers.test.ts writes with them, pulls, and compares.
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { Entity as ElectroEntity, Service } from 'electrodb';
import { boolean, Entity as ToolboxEntity, item, number, set, string, Table as ToolboxTable } from 'dynamodb-toolbox';
import { Table as OneTable } from 'dynamodb-onetable';

/** ElectroDB's task manager: keys `$taskapp#employee_<id>`, lower-cased; collections on two GSIs named as ElectroDB's docs name them. */
export function electroTaskApp(table: string, client: DynamoDBDocumentClient) {
  const employee = new ElectroEntity(
    {
      model: { entity: 'employee', version: '1', service: 'taskapp' },
      attributes: {
        employee: { type: 'string' },
        firstName: { type: 'string', required: true },
        lastName: { type: 'string', required: true },
        office: { type: 'string', required: true },
        title: { type: 'string', required: true },
        salary: { type: 'number' },
        hired: { type: 'string', required: true },
        birthday: { type: 'string', field: 'bday' },
        skills: { type: 'set', items: 'string' },
      },
      indexes: {
        employee: { pk: { field: 'pk', composite: ['employee'] }, sk: { field: 'sk', composite: [] } },
        coworkers: { index: 'gsi1pk-gsi1sk-index', collection: 'workplaces', pk: { field: 'gsi1pk', composite: ['office'] }, sk: { field: 'gsi1sk', composite: ['employee'] } },
        assigned: { index: 'gsi2pk-gsi2sk-index', collection: 'assignments', pk: { field: 'gsi2pk', composite: ['employee'] }, sk: { field: 'gsi2sk', composite: [] } },
      },
    },
    { table, client },
  );
  const task = new ElectroEntity(
    {
      model: { entity: 'task', version: '1', service: 'taskapp' },
      attributes: {
        task: { type: 'string' },
        project: { type: 'string', required: true },
        employee: { type: 'string', required: true },
        description: { type: 'string' },
        points: { type: 'number', required: true },
        status: { type: ['open', 'in-progress', 'done'] as const, required: true },
      },
      indexes: {
        task: { pk: { field: 'pk', composite: ['task'] }, sk: { field: 'sk', composite: ['project'] } },
        assigned: { index: 'gsi2pk-gsi2sk-index', collection: 'assignments', pk: { field: 'gsi2pk', composite: ['employee'] }, sk: { field: 'gsi2sk', composite: ['project', 'task'] } },
      },
    },
    { table, client },
  );
  const office = new ElectroEntity(
    {
      model: { entity: 'office', version: '1', service: 'taskapp' },
      attributes: { office: { type: 'string' }, country: { type: 'string', required: true }, city: { type: 'string', required: true }, opened: { type: 'number', required: true } },
      indexes: {
        locations: { pk: { field: 'pk', composite: ['country'] }, sk: { field: 'sk', composite: ['city', 'office'] } },
        office: { index: 'gsi1pk-gsi1sk-index', collection: 'workplaces', pk: { field: 'gsi1pk', composite: ['office'] }, sk: { field: 'gsi1sk', composite: [] } },
      },
    },
    { table, client },
  );
  const service = new Service({ employee, task, office }, { table, client });
  return { employee, task, office, service };
}

/**
 * ElectroDB's fleet: vehicles and their trips in one partition (collection `history`), trip numbers
 * padded by ElectroDB (`$history#trip_1#tripno_00005`), fleet numbers not (`$roster#vehicle_1#fleetno_7`,
 * on the depot's roster in a GSI): one table holding integers both ways.
 */
export function electroFleet(table: string, client: DynamoDBDocumentClient) {
  const vehicle = new ElectroEntity(
    {
      model: { entity: 'vehicle', version: '1', service: 'fleet' },
      attributes: { vehicleId: { type: 'string' }, depot: { type: 'string', required: true }, fleetNo: { type: 'number', required: true }, make: { type: 'string', required: true } },
      indexes: {
        vehicle: { collection: 'history', pk: { field: 'pk', composite: ['vehicleId'] }, sk: { field: 'sk', composite: [] } },
        roster: { index: 'gsi1pk-gsi1sk-index', collection: 'roster', pk: { field: 'gsi1pk', composite: ['depot'] }, sk: { field: 'gsi1sk', composite: ['fleetNo'] } },
      },
    },
    { table, client },
  );
  const trip = new ElectroEntity(
    {
      model: { entity: 'trip', version: '1', service: 'fleet' },
      attributes: { vehicleId: { type: 'string' }, tripNo: { type: 'number', padding: { length: 5, char: '0' } }, km: { type: 'number', required: true }, driver: { type: 'string', required: true } },
      indexes: { trips: { collection: 'history', pk: { field: 'pk', composite: ['vehicleId'] }, sk: { field: 'sk', composite: ['tripNo'] } } },
    },
    { table, client },
  );
  return { vehicle, trip, service: new Service({ vehicle, trip }, { table, client }) };
}

/** ElectroDB's table: pk/sk and the two GSIs its collections live on. */
export const electroTable = (name: string) => tableInput(name, ['pk', 'sk'], { 'gsi1pk-gsi1sk-index': ['gsi1pk', 'gsi1sk'], 'gsi2pk-gsi2sk-index': ['gsi2pk', 'gsi2sk'] });

/** DynamoDB-Toolbox v2: trainers and the pokemon they caught, one partition per trainer; a GSI by species, levels padded. */
export function toolboxPokedex(name: string, documentClient: DynamoDBDocumentClient) {
  const table = new ToolboxTable({
    name,
    partitionKey: { name: 'PK', type: 'string' },
    sortKey: { name: 'SK', type: 'string' },
    indexes: { bySpecies: { type: 'global', partitionKey: { name: 'GSI1PK', type: 'string' }, sortKey: { name: 'GSI1SK', type: 'string' } } },
    documentClient,
  });
  const trainer = new ToolboxEntity({
    name: 'Trainer',
    table,
    schema: item({ trainerId: string().key(), name: string(), region: string(), badges: number().default(0), champion: boolean().default(false) }),
    computeKey: ({ trainerId }) => ({ PK: `TRAINER#${trainerId}`, SK: 'PROFILE' }),
  });
  const pokemonSchema = item({
    trainerId: string().key(),
    pokemonId: string().key(),
    species: string(),
    level: number(),
    nickname: string().optional().savedAs('nick'),
    types: set(string()),
  });
  const pokemon = new ToolboxEntity({
    name: 'Pokemon',
    table,
    schema: pokemonSchema.and((prev) => ({
      GSI1PK: string().hidden().link<typeof prev>(({ species }) => `SPECIES#${species}`),
      GSI1SK: string().hidden().link<typeof prev>(({ level, pokemonId }) => `LEVEL#${String(level).padStart(3, '0')}#${pokemonId}`),
    })),
    computeKey: ({ trainerId, pokemonId }) => ({ PK: `TRAINER#${trainerId}`, SK: `POKEMON#${pokemonId}` }),
  });
  return { table, trainer, pokemon };
}

export const toolboxTable = (name: string) => tableInput(name, ['PK', 'SK'], { bySpecies: ['GSI1PK', 'GSI1SK'] });

/** OneTable: accounts with their users and invoices in the account's partition, a GSI by account name; ulids, ISO dates, timestamps. */
export const oneTableSchema = {
  format: 'onetable:1.1.0',
  version: '0.0.1',
  indexes: { primary: { hash: 'pk', sort: 'sk' }, gs1: { hash: 'gs1pk', sort: 'gs1sk', project: 'all' } },
  models: {
    Account: {
      pk: { type: String, value: 'account#${id}' },
      sk: { type: String, value: 'account#' },
      id: { type: String, generate: 'ulid' },
      name: { type: String, required: true },
      balance: { type: Number, default: 0 },
      gs1pk: { type: String, value: 'account-name#${name}' },
      gs1sk: { type: String, value: 'account#' },
    },
    User: {
      pk: { type: String, value: 'account#${accountId}' },
      sk: { type: String, value: 'user#${email}' },
      accountId: { type: String, required: true },
      id: { type: String, generate: 'ulid' },
      email: { type: String, required: true, map: 'em' },
      name: { type: String, required: true },
      role: { type: String, enum: ['admin', 'user'], default: 'user' },
      registered: { type: Date },
    },
    Invoice: {
      pk: { type: String, value: 'account#${accountId}' },
      sk: { type: String, value: 'invoice#${id}' },
      accountId: { type: String, required: true },
      id: { type: String, generate: 'ulid' },
      amount: { type: Number, required: true },
      paid: { type: Boolean, default: false },
      due: { type: Date, required: true },
    },
  } as const,
  params: { isoDates: true, timestamps: true },
};

/** The OneTable table for the schema (its models: table.getModel('Account'), 'User', 'Invoice'). */
export function oneTableAccounts(name: string, client: DynamoDBClient): OneTable<typeof oneTableSchema> {
  return new OneTable({ client, name, schema: oneTableSchema, partial: false });
}

export const oneTableTable = (name: string) => tableInput(name, ['pk', 'sk'], { gs1: ['gs1pk', 'gs1sk'] });

function tableInput(name: string, key: [string, string], gsis: Record<string, [string, string]>) {
  const names = [...key, ...Object.values(gsis).flat()];
  return {
    TableName: name,
    BillingMode: 'PAY_PER_REQUEST' as const,
    KeySchema: [{ AttributeName: key[0], KeyType: 'HASH' as const }, { AttributeName: key[1], KeyType: 'RANGE' as const }],
    AttributeDefinitions: names.map((n) => ({ AttributeName: n, AttributeType: 'S' as const })),
    GlobalSecondaryIndexes: Object.entries(gsis).map(([IndexName, [pk, sk]]) => ({ IndexName, KeySchema: [{ AttributeName: pk, KeyType: 'HASH' as const }, { AttributeName: sk, KeyType: 'RANGE' as const }], Projection: { ProjectionType: 'ALL' as const } })),
  };
}
