// DynamoDB stream records as typed events. A record (the Streams API's GetRecords shape, or an AWS
// Lambda DynamoDB event record) is told apart by parsing its keys with the same key templates the
// repositories build them with: an entity's table key, or an edge's item (its node's partition key
// and a `FORWARD.<type>.<id>` / `INVERSE.<type>.<id>` sort key). Its images are converted as the
// DocumentClient converts items (numbers, sets, binary; Lambda's JSON carries binary as base64
// text, the Streams API as bytes), then read as the repositories read items (declared attributes,
// timestamps to Date). A record of no declared entity or edge is an `entity: undefined` event
// carrying its keys, never dropped; a record that cannot be decoded is a StreamRecordError that
// says why, naming the record but no stored value. A removal by Time to Live is `expired: true`
// (userIdentity: type Service, principal dynamodb.amazonaws.com).

import { edgeAttributes, edgeNodeTypes, nodeId, type EdgeModel, type NodeType } from './edge.js';
import { DdbgenError } from './errors.js';
import { FORBIDDEN_NAMES, checkValue, describeItem, isStoredTimestamp, propertyNamed, type AttributeCodecs, type AttributeTypes } from './item.js';
import { ValidationError } from './errors.js';
import { parseKey } from './codec.js';
import { itemOf } from './item-mapping.js';
import type { EntityModel } from './repository.js';

/** What the table's stream records carry (its StreamViewType). */
export type StreamViewType = 'new-and-old-images' | 'new-image' | 'old-image' | 'keys-only';

export type StreamEventName = 'insert' | 'modify' | 'remove';

/** An attribute value as a stream record carries it: binary as bytes (Streams API) or base64 text (Lambda events). */
export interface StreamAttributeValue {
  readonly S?: string | undefined;
  readonly N?: string | undefined;
  readonly B?: Uint8Array | string | undefined;
  readonly SS?: readonly string[] | undefined;
  readonly NS?: readonly string[] | undefined;
  readonly BS?: ReadonlyArray<Uint8Array | string> | undefined;
  readonly M?: Readonly<Record<string, StreamAttributeValue>> | undefined;
  readonly L?: readonly StreamAttributeValue[] | undefined;
  readonly NULL?: boolean | undefined;
  readonly BOOL?: boolean | undefined;
}

export type StreamImage = Readonly<Record<string, StreamAttributeValue>>;

/**
 * One stream record: a `Record` of `@aws-sdk/client-dynamodb-streams`' GetRecords, or one of the
 * `Records` of an AWS Lambda DynamoDB stream event (`aws-lambda`'s `DynamoDBRecord`).
 */
export interface StreamRecord {
  readonly eventID?: string | undefined;
  /** `INSERT`, `MODIFY` or `REMOVE`. */
  readonly eventName?: string | undefined;
  readonly dynamodb?:
    | {
        readonly Keys?: StreamImage | undefined;
        readonly NewImage?: StreamImage | undefined;
        readonly OldImage?: StreamImage | undefined;
        readonly SequenceNumber?: string | undefined;
      }
    | undefined;
  /** Who made the change: for a Time to Live deletion, type `Service` and principal `dynamodb.amazonaws.com` (Lambda spells the fields in camelCase, the Streams API in PascalCase). */
  readonly userIdentity?:
    | { readonly type?: string | undefined; readonly principalId?: string | undefined; readonly Type?: string | undefined; readonly PrincipalId?: string | undefined }
    | null
    | undefined;
}

type HasNew<View> = View extends 'new-image' | 'new-and-old-images' ? true : false;
type HasOld<View> = View extends 'old-image' | 'new-and-old-images' ? true : false;
/** `newItem` when the view carries it: required where the event has one, `undefined` where it has none; no such field on other views. */
type NewField<View, Item, Present extends boolean> = HasNew<View> extends true ? (Present extends true ? { readonly newItem: Item } : { readonly newItem?: undefined }) : {};
type OldField<View, Item, Present extends boolean> = HasOld<View> extends true ? (Present extends true ? { readonly oldItem: Item } : { readonly oldItem?: undefined }) : {};

/**
 * One decoded change of an entity or edge `Entity`. `key` identifies the item; `newItem` (after the
 * change) and `oldItem` (before it) are there as the stream's view type carries them: inserts have
 * no old item, removals no new one, and a keys-only stream carries neither. `expired` is true for a
 * removal by Time to Live. `Extra` holds what an edge event adds (`side`).
 */
export type StreamEvent<Entity extends string | undefined, Key, Item, View extends StreamViewType, Extra extends object = {}> =
  | ({ readonly entity: Entity; readonly event: 'insert'; readonly key: Key; readonly expired: false; readonly sequenceNumber: string | undefined } & Extra & NewField<View, Item, true> & OldField<View, Item, false>)
  | ({ readonly entity: Entity; readonly event: 'modify'; readonly key: Key; readonly expired: false; readonly sequenceNumber: string | undefined } & Extra & NewField<View, Item, true> & OldField<View, Item, true>)
  | ({ readonly entity: Entity; readonly event: 'remove'; readonly key: Key; readonly expired: boolean; readonly sequenceNumber: string | undefined } & Extra & NewField<View, Item, false> & OldField<View, Item, true>);

/** An edge item's change: its key is the relationship, `side` says which of its two items changed. */
export type EdgeStreamEvent<Edge extends string, Node, Attributes, View extends StreamViewType> = StreamEvent<Edge, { readonly from: Node; readonly to: Node }, Attributes, View, { readonly side: 'forward' | 'inverse' }>;

/** A record whose keys no declared entity or edge builds: its keys and images as stored. */
export type UnknownStreamEvent<View extends StreamViewType> = StreamEvent<undefined, Record<string, unknown>, Record<string, unknown>, View>;

/** What the decoder knows of a table: its key attributes, view type, entities and edges. */
export interface StreamModel {
  readonly table: string;
  readonly view: StreamViewType;
  readonly pk: string;
  readonly sk?: string;
  readonly entities: ReadonlyArray<{ readonly type: string; readonly model: EntityModel }>;
  readonly edges: readonly EdgeModel[];
}

/**
 * A stream record that cannot be decoded, and why. Its message names the record by sequence number
 * and, when its keys are an entity's, by entity and key parts (a part marked pii as a fingerprint):
 * never a stored value. The record's keys as stored are in `keys`, which is not enumerable, so
 * logging the error prints no data.
 */
export class StreamRecordError extends DdbgenError {
  readonly sequenceNumber: string | undefined;
  declare readonly keys: Readonly<Record<string, unknown>> | undefined;
  constructor(table: string, record: StreamRecord, reason: string, keys?: Readonly<Record<string, unknown>>, item?: string) {
    const at = record.dynamodb?.SequenceNumber === undefined ? '' : ` ${record.dynamodb.SequenceNumber}`;
    super('STREAM_RECORD', `${table} stream record${at}${item === undefined ? '' : ` (${item})`} cannot be decoded: ${reason}`);
    this.sequenceNumber = record.dynamodb?.SequenceNumber;
    Object.defineProperty(this, 'keys', { value: keys, enumerable: false });
  }
}

const EVENTS: ReadonlyMap<string | undefined, StreamEventName> = new Map([['INSERT', 'insert'], ['MODIFY', 'modify'], ['REMOVE', 'remove']]);
const VIEW_NAMES: Readonly<Record<StreamViewType, string>> = { 'new-and-old-images': 'NEW_AND_OLD_IMAGES', 'new-image': 'NEW_IMAGE', 'old-image': 'OLD_IMAGE', 'keys-only': 'KEYS_ONLY' };

/** Whether a removal was made by Time to Live rather than by a request. */
export function isTtlDeletion(record: StreamRecord): boolean {
  const who = record.userIdentity;
  if (!who) return false;
  return (who.type ?? who.Type) === 'Service' && (who.principalId ?? who.PrincipalId) === 'dynamodb.amazonaws.com';
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Bytes of base64 text (Lambda events carry binary attributes so); undefined when the text is not base64. */
export function base64Bytes(text: string): Uint8Array | undefined {
  const clean = text.replace(/=+$/, '');
  if (clean.length % 4 === 1 || /[^A-Za-z0-9+/]/.test(clean)) return undefined;
  const bytes = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let bits = 0;
  let buffer = 0;
  let at = 0;
  for (const c of clean) {
    buffer = (buffer << 6) | BASE64.indexOf(c);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes[at++] = (buffer >> bits) & 0xff;
    }
  }
  return bytes;
}

class ImageError extends Error {}

function toNumber(text: string, path: string): number | bigint {
  const value = Number(text);
  if (Number.isNaN(value)) throw new ImageError(`${path} is an N that is not a number`);
  // as the DocumentClient reads numbers: beyond the safe integers, an integer is a bigint
  if ((value > Number.MAX_SAFE_INTEGER || value < Number.MIN_SAFE_INTEGER) && Number.isFinite(value)) {
    try {
      return BigInt(text);
    } catch {
      throw new ImageError(`${path} is an N beyond the safe integers that is not an integer, which a JavaScript number cannot hold exactly`);
    }
  }
  return value;
}

function toBytes(value: Uint8Array | string, path: string): Uint8Array {
  if (typeof value !== 'string') return value;
  const bytes = base64Bytes(value);
  if (!bytes) throw new ImageError(`${path} is a B whose text is not base64`);
  return bytes;
}

const isStringArray = (v: unknown) => Array.isArray(v) && v.every((e) => typeof e === 'string');
const isBytes = (v: unknown) => typeof v === 'string' || v instanceof Uint8Array;

/** Each wire tag and what it must hold: a malformed record is an ImageError, never a TypeError. */
const WIRE_SHAPES: ReadonlyArray<readonly [keyof StreamAttributeValue, (v: unknown) => boolean, string]> = [
  ['S', (v) => typeof v === 'string', 'text'],
  ['N', (v) => typeof v === 'string', 'a number as text'],
  ['BOOL', (v) => typeof v === 'boolean', 'true or false'],
  ['NULL', (v) => v === true, 'true'],
  ['B', isBytes, 'bytes or base64 text'],
  ['SS', isStringArray, 'a list of text'],
  ['NS', isStringArray, 'a list of numbers as text'],
  ['BS', (v) => Array.isArray(v) && v.every(isBytes), 'a list of bytes or base64 text'],
  ['L', (v) => Array.isArray(v), 'a list'],
  ['M', (v) => typeof v === 'object' && v !== null && !Array.isArray(v), 'a map'],
];

/** A stream attribute value as the DocumentClient would return it (string, number, boolean, null, Uint8Array, Set, array, object). */
export function nativeValue(value: StreamAttributeValue, path: string): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ImageError(`${path} is not a DynamoDB attribute value (an object with one of S, N, B, BOOL, NULL, SS, NS, BS, L, M)`);
  const shape = WIRE_SHAPES.find(([tag]) => Object.prototype.hasOwnProperty.call(value, tag) && value[tag] !== undefined);
  if (shape !== undefined && !shape[1](value[shape[0]])) throw new ImageError(`${path} is a ${shape[0]} that does not hold ${shape[2]}`);
  if (value.S !== undefined) return value.S;
  if (value.N !== undefined) return toNumber(value.N, path);
  if (value.BOOL !== undefined) return value.BOOL;
  if (value.NULL !== undefined) return null;
  if (value.B !== undefined) return toBytes(value.B, path);
  if (value.SS !== undefined) return new Set(value.SS);
  if (value.NS !== undefined) return new Set(value.NS.map((n, i) => toNumber(n, `${path}[${i}]`)));
  if (value.BS !== undefined) return new Set(value.BS.map((b, i) => toBytes(b, `${path}[${i}]`)));
  if (value.L !== undefined) return value.L.map((v, i) => nativeValue(v, `${path}[${i}]`));
  if (value.M !== undefined) return nativeImage(value.M, `${path}.`);
  throw new ImageError(`${path} is not a DynamoDB attribute value (none of S, N, B, BOOL, NULL, SS, NS, BS, L, M)`);
}

/** An image's attributes as plain values; names that reach into the object prototype are left out, as every read does. */
function nativeImage(image: StreamImage, prefix: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(image)) if (!FORBIDDEN_NAMES.has(name)) out[name] = nativeValue(image[name]!, prefix + name);
  return out;
}

/** What an owner (an entity or an edge) declares of its attributes, for checking an image. */
interface Declared {
  readonly codecs: AttributeCodecs;
  readonly types?: AttributeTypes | undefined;
  readonly required?: readonly string[] | undefined;
  /** Attributes stored under other names: checked under their property names. */
  readonly storedNames?: Readonly<Record<string, string>> | undefined;
}

/**
 * An image read as its owner's repository reads items, after checking it holds what the owner
 * declares: each declared attribute of its declared type as stored (a timestamp as the exact
 * ISO-8601 text ddbgen writes, the TTL attribute as epoch seconds), required ones present (a
 * required set may be absent: it is empty). Anything else is an ImageError that names the attribute,
 * never its value.
 */
function decodeImage(owner: string, declared: Declared, stored: Record<string, unknown>, read: (stored: Record<string, unknown>) => Record<string, unknown>, which: string): Record<string, unknown> {
  const { codecs, types, required } = declared;
  const named = declared.storedNames === undefined ? stored : propertyNamed({ storedNames: declared.storedNames }, stored);
  for (const name of Object.keys(named)) {
    const value = named[name];
    const type = types !== undefined && Object.prototype.hasOwnProperty.call(types, name) ? types[name] : undefined;
    if (type === undefined || value === undefined) continue;
    const codec = Object.prototype.hasOwnProperty.call(codecs, name) ? codecs[name] : undefined;
    if (typeof codec === 'object' && 'epochSeconds' in codec) {
      // the TTL attribute: epoch seconds (or the ISO text it held before it became the TTL attribute)
      if (!(typeof value === 'number' && Number.isFinite(value)) && !(typeof value === 'string' && isStoredTimestamp(value))) throw new ImageError(`${which}.${name} is not a time to live (${owner} stores ${name} as epoch seconds), it is ${value === null ? 'null' : `a ${typeof value}`}`);
      continue;
    }
    try {
      checkValue(owner, `${which}.${name}`, type, value, true);
    } catch (error) {
      if (error instanceof ValidationError) throw new ImageError(error.message.slice(owner.length + 1).trimStart());
      throw error;
    }
  }
  for (const name of required ?? []) {
    const kind = types?.[name]?.kind;
    if (named[name] === undefined && kind !== 'stringSet' && kind !== 'numberSet') throw new ImageError(`${which}.${name} is missing, and ${owner} declares it required`);
  }
  return read(stored);
}

/** The entity whose table-key templates parse these keys, and the key parts they hold. */
function entityOf(model: StreamModel, keys: Readonly<Record<string, unknown>>): { readonly member: StreamModel['entities'][number]; readonly key: Record<string, unknown> } | undefined {
  const pk = keys[model.pk];
  const sk = model.sk === undefined ? undefined : keys[model.sk];
  if (typeof pk !== 'string' || (model.sk !== undefined && typeof sk !== 'string')) return undefined;
  for (const member of model.entities) {
    try {
      const key = parseKey(member.model.pk.template, pk);
      if (member.model.sk) Object.assign(key, parseKey(member.model.sk.template, sk as string));
      return { member, key };
    } catch {
      // not this entity's key
    }
  }
  return undefined;
}

/** The edge item these keys are: which edge, which of its two items, and the relationship. */
function edgeOf(model: StreamModel, types: ReadonlyMap<EdgeModel, Map<string, NodeType>>, keys: Readonly<Record<string, unknown>>) {
  const pk = keys[model.pk];
  const sk = model.sk === undefined ? undefined : keys[model.sk];
  if (typeof pk !== 'string' || typeof sk !== 'string') return undefined;
  const parse = (template: { parse(key: string): Record<string, unknown> } | undefined, key: string) => {
    if (!template) return undefined;
    try {
      return template.parse(key);
    } catch {
      return undefined;
    }
  };
  for (const edge of model.edges) {
    const nodes = types.get(edge)!;
    const owner = [...nodes].flatMap(([type, t]) => {
      const values = parse(t.key, pk);
      return values ? [{ type, id: nodeId(t, values) }] : [];
    })[0];
    if (!owner) continue;
    for (const side of ['forward', 'inverse'] as const) {
      for (const [type, t] of nodes) {
        const values = parse(t[side], sk);
        if (!values) continue;
        const other = { type, id: nodeId(t, values) };
        return { edge, side, key: side === 'forward' ? { from: owner, to: other } : { from: other, to: owner } };
      }
    }
  }
  return undefined;
}

/** The decoder of one table's stream records (as the header describes): a typed event, or a StreamRecordError. */
export function streamDecoder<Event>(model: StreamModel): (record: StreamRecord) => Event {
  const types = new Map(model.edges.map((edge) => [edge, edgeNodeTypes(edge)] as const));
  const view = model.view;
  const carriesNew = view === 'new-image' || view === 'new-and-old-images';
  const carriesOld = view === 'old-image' || view === 'new-and-old-images';
  return (given) => {
    // a record that is not an object (null, a string) fails as a record, not with a TypeError
    const record: StreamRecord = typeof given === 'object' && given !== null ? given : {};
    const fail = (reason: string, keys?: Readonly<Record<string, unknown>>, item?: string) => new StreamRecordError(model.table, record, reason, keys, item);
    if (record !== given) throw fail(`it is ${given === null ? 'null' : `a ${typeof given}`}, not a stream record (an object with eventName and dynamodb)`);
    const event = EVENTS.get(record.eventName);
    if (event === undefined) throw fail(`eventName is ${JSON.stringify(record.eventName)}, not INSERT, MODIFY or REMOVE`);
    const data = record.dynamodb;
    if (typeof data !== 'object' || data === null || typeof data.Keys !== 'object' || data.Keys === null) throw fail('it has no dynamodb.Keys');
    for (const image of ['NewImage', 'OldImage'] as const) {
      if (data[image] !== undefined && (typeof data[image] !== 'object' || data[image] === null)) throw fail(`its dynamodb.${image} is not a map of attribute values`);
    }
    let keys: Record<string, unknown>;
    try {
      const stored = nativeImage(data.Keys, 'Keys.');
      keys = { [model.pk]: stored[model.pk], ...(model.sk === undefined ? {} : { [model.sk]: stored[model.sk] }), ...stored }; // the table key first
    } catch (error) {
      if (error instanceof ImageError) throw fail(error.message);
      throw error;
    }
    const found = entityOf(model, keys);
    const link = found ? undefined : edgeOf(model, types, keys);
    const item = found ? describeItem(found.member.model, found.key) : link ? `edge ${link.edge.name}` : undefined;
    const wantNew = carriesNew && event !== 'remove';
    const wantOld = carriesOld && event !== 'insert';
    const missing = [...(wantNew && !data.NewImage ? ['NewImage'] : []), ...(wantOld && !data.OldImage ? ['OldImage'] : [])];
    if (missing.length) {
      throw fail(`it has no ${missing.join(' or ')}, which a ${VIEW_NAMES[view]} stream carries on ${record.eventName}: the table's stream view type is not the schema's stream: '${view}'`, keys, item);
    }
    const base = { event, expired: event === 'remove' && isTtlDeletion(record), sequenceNumber: data.SequenceNumber };
    try {
      const images = { ...(wantNew ? { newItem: nativeImage(data.NewImage!, 'NewImage.') } : {}), ...(wantOld ? { oldItem: nativeImage(data.OldImage!, 'OldImage.') } : {}) };
      const read = (owner: string, declared: Declared, from: (stored: Record<string, unknown>) => Record<string, unknown>) => {
        const items: Record<string, Record<string, unknown>> = {};
        for (const [field, stored] of Object.entries(images)) items[field] = decodeImage(owner, declared, stored, from, field === 'newItem' ? 'NewImage' : 'OldImage');
        return items;
      };
      if (found) {
        const { type, model: entity } = found.member;
        const items = read(type, entity, (r) => itemOf(entity, r));
        // key parts come exact from an image (a key holds a truncated timestamp only to its unit)
        const image = items['newItem'] ?? items['oldItem'];
        if (image) for (const name of Object.keys(found.key)) if (image[name] !== undefined) found.key[name] = image[name];
        return { entity: type, ...base, key: found.key, ...items } as Event;
      }
      if (link) {
        const { edge } = link;
        const items = read(edge.name, edge, (r) => edgeAttributes<Record<string, unknown>>(edge, r));
        return { entity: edge.name, side: link.side, ...base, key: link.key, ...items } as Event;
      }
      return { entity: undefined, ...base, key: keys, ...images } as Event;
    } catch (error) {
      if (error instanceof ImageError) throw fail(error.message, keys, item);
      throw error;
    }
  };
}

/** A handler of one kind of event: a function, or `'ignore'` to skip it on purpose. */
export type StreamEventHandler<E> = 'ignore' | ((event: E) => unknown);

/** An entity's (or edge's) handlers: one for every event, `'ignore'`, or one per event kind. */
export type EntityStreamHandlers<E extends { readonly event: StreamEventName }> =
  | StreamEventHandler<E>
  | { readonly [K in StreamEventName]: StreamEventHandler<Extract<E, { readonly event: K }>> };

/**
 * Handlers for every entity and edge of a table, and `unknown` for records none of them owns: each
 * is required (a missing one is a compile error), so a new entity cannot go unhandled unnoticed.
 */
export type StreamHandlers<Event extends { readonly entity: string | undefined; readonly event: StreamEventName }> = {
  readonly [Name in Exclude<Event['entity'], undefined>]: EntityStreamHandlers<Extract<Event, { readonly entity: Name }>>;
} & { readonly unknown: EntityStreamHandlers<Extract<Event, { readonly entity: undefined }>> };

/** What a Lambda function for a DynamoDB stream returns for partial batch responses (`ReportBatchItemFailures`). */
export interface StreamBatchResponse {
  readonly batchItemFailures: Array<{ readonly itemIdentifier: string }>;
}

export interface StreamHandlerOptions {
  /** Told of the record that failed (decoding or its handler); default: `console.error`. */
  readonly onError?: (error: unknown, record: StreamRecord) => void;
}

declare const console: { error(...data: unknown[]): void };

/**
 * A stream handler: decodes each record and runs its handler, one record at a time in record order.
 * At the first record that fails, it stops and reports that record's sequence number in
 * `batchItemFailures`: Lambda retries the batch from the lowest failed sequence number, so later
 * records run then, not twice. A record without a sequence number fails the whole batch (throws).
 */
export function streamHandler<Event extends { readonly entity: string | undefined; readonly event: StreamEventName }>(
  decode: (record: StreamRecord) => Event,
  handlers: StreamHandlers<Event>,
  options: StreamHandlerOptions = {},
): (batch: { readonly Records?: readonly StreamRecord[] | undefined }) => Promise<StreamBatchResponse> {
  const table = handlers as unknown as Readonly<Record<string, EntityStreamHandlers<Event>>>;
  return async (batch) => {
    for (const record of batch.Records ?? []) {
      try {
        const event = decode(record);
        const chosen = table[event.entity ?? 'unknown'];
        const handler = typeof chosen === 'object' ? chosen[event.event] : chosen;
        if (handler === undefined) throw new DdbgenError('STREAM_HANDLER_MISSING', `no handler is given for ${event.entity ?? 'unknown'} ${event.event}`);
        if (handler !== 'ignore') await (handler as (event: Event) => unknown)(event);
      } catch (error) {
        const id = record.dynamodb?.SequenceNumber;
        (options.onError ?? ((e: unknown) => console.error(`ddbgen: stream record ${id ?? '(no sequence number)'} failed:`, e)))(error, record);
        if (id === undefined) throw error;
        return { batchItemFailures: [{ itemIdentifier: id }] };
      }
    }
    return { batchItemFailures: [] };
  };
}
