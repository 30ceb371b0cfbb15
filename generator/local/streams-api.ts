// The DynamoDB Streams API of the local DynamoDB: one shard per stream, over the stream records
// the engine keeps, read through iterators that are opaque to the caller as DynamoDB's are.

import type { InMemoryEngine, InMemoryStreamRecord } from '../../templates/runtime/in-memory/engine.js';
import { RequestError, validation } from '../../templates/runtime/in-memory/value.js';
import type { ControlPlane, TableRecord } from './control-plane.js';
import { constraints, invalid } from './table-definition-checks.js';

/** ListStreams, DescribeStream, GetShardIterator and GetRecords over the tables of a control plane. */
export class StreamsApi {
  private readonly control: ControlPlane;
  private readonly engine: InMemoryEngine;

  constructor(control: ControlPlane, engine: InMemoryEngine) {
    this.control = control;
    this.engine = engine;
  }

  private streamArn(table: TableRecord): string {
    return `${this.control.arn(table.definition.TableName!)}/stream/${table.stream!.label}`;
  }

  private byStreamArn(arn: unknown): TableRecord {
    const text = String(arn ?? '');
    const table = [...this.control.tables.values()].find((t) => t.stream && this.streamArn(t) === text);
    if (!table) throw new RequestError('ResourceNotFoundException', `Requested resource not found: Stream: ${text} not found`);
    return table;
  }

  listStreams(input: Readonly<Record<string, unknown>>): Record<string, unknown> {
    const streams = [...this.control.tables.values()]
      .filter((t) => t.stream && (input.TableName === undefined || t.definition.TableName === input.TableName))
      .map((t) => ({ StreamArn: this.streamArn(t), TableName: t.definition.TableName, StreamLabel: t.stream!.label }));
    return { Streams: streams };
  }

  private shardId(table: TableRecord): string {
    return `shardId-00000001-${table.id.replace(/-/g, '').slice(0, 24)}`;
  }

  describeStream(input: Readonly<Record<string, unknown>>): Record<string, unknown> {
    const table = this.byStreamArn(input.StreamArn);
    const records = this.engine.streamRecords(table.definition.TableName!);
    return {
      StreamDescription: {
        StreamArn: this.streamArn(table),
        StreamLabel: table.stream!.label,
        StreamStatus: 'ENABLED',
        StreamViewType: table.stream!.viewType,
        CreationRequestDateTime: table.created / 1000,
        TableName: table.definition.TableName,
        KeySchema: table.definition.KeySchema,
        Shards: [{ ShardId: this.shardId(table), SequenceNumberRange: { StartingSequenceNumber: records[0]?.dynamodb.SequenceNumber ?? '000000000000000000001' } }],
      },
    };
  }

  getShardIterator(input: Readonly<Record<string, unknown>>): Record<string, unknown> {
    const table = this.byStreamArn(input.StreamArn);
    if (input.ShardId !== this.shardId(table)) throw new RequestError('ResourceNotFoundException', `Requested resource not found: Shard: ${String(input.ShardId)} in Stream: ${this.streamArn(table)} not found`);
    const records = this.engine.streamRecords(table.definition.TableName!);
    const sequence = input.SequenceNumber as string | undefined;
    let position: number;
    switch (input.ShardIteratorType) {
      case 'TRIM_HORIZON':
        position = 0;
        break;
      case 'LATEST':
        position = records.length;
        break;
      case 'AT_SEQUENCE_NUMBER':
      case 'AFTER_SEQUENCE_NUMBER': {
        if (sequence === undefined) throw invalid('SequenceNumber is required for shard iterator type AT_SEQUENCE_NUMBER or AFTER_SEQUENCE_NUMBER');
        const at = records.findIndex((r) => BigInt(r.dynamodb.SequenceNumber) >= BigInt(sequence));
        position = at < 0 ? records.length : at + (input.ShardIteratorType === 'AFTER_SEQUENCE_NUMBER' && records[at]!.dynamodb.SequenceNumber === sequence ? 1 : 0);
        break;
      }
      default:
        throw constraints([`Value '${String(input.ShardIteratorType)}' at 'shardIteratorType' failed to satisfy constraint: Member must satisfy enum value set: [AFTER_SEQUENCE_NUMBER, AT_SEQUENCE_NUMBER, LATEST, TRIM_HORIZON]`]);
    }
    return { ShardIterator: iterator(this.streamArn(table), position) };
  }

  getRecords(input: Readonly<Record<string, unknown>>): Record<string, unknown> {
    const { arn, position } = readIterator(input.ShardIterator);
    const table = this.byStreamArn(arn);
    const limit = (input.Limit as number | undefined) ?? 1000;
    if (limit < 1 || limit > 1000) throw constraints([`Value '${limit}' at 'limit' failed to satisfy constraint: Member must have value ${limit < 1 ? 'greater than or equal to 1' : 'less than or equal to 1000'}`]);
    const records = this.engine.streamRecords(table.definition.TableName!);
    const page = records.slice(position, position + limit);
    return { Records: page.map(wireRecord), NextShardIterator: iterator(arn, position + page.length) };
  }
}

/** A stream record as GetRecords answers it over the wire (the creation time in epoch seconds). */
function wireRecord(record: InMemoryStreamRecord): Record<string, unknown> {
  return { ...record, dynamodb: { ...record.dynamodb, ApproximateCreationDateTime: record.dynamodb.ApproximateCreationDateTime.getTime() / 1000 } };
}

const iterator = (arn: string, position: number) => Buffer.from(JSON.stringify({ arn, position })).toString('base64');

function readIterator(given: unknown): { arn: string; position: number } {
  try {
    const parsed = JSON.parse(Buffer.from(String(given), 'base64').toString('utf8')) as { arn?: unknown; position?: unknown };
    if (typeof parsed.arn === 'string' && typeof parsed.position === 'number') return { arn: parsed.arn, position: parsed.position };
  } catch {
    // an iterator that is not one of ours is refused below
  }
  throw validation('Invalid ShardIterator');
}
