// Reads observed traffic for `ddbgen lint --observed` and `ddbgen report --observed`, from one of
// three files: the EMF lines ddbgen's EmfWriter flushed (one JSON document per line, Lambda's
// prefixes allowed), an OpenTelemetry metrics export in OTLP JSON (one ExportMetricsServiceRequest,
// or one per line as the collector's file exporter writes them) of the metrics ddbgen's generated
// code records, or a CloudWatch Contributor Insights GetInsightRuleReport answer (the most accessed
// or most throttled keys). A file that is none of these, or whose numbers are not numbers, is an
// error (DDB310) naming the file, the line and column or the JSON path, and the fix.

import path from 'node:path';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { messages } from '../diagnostics/messages.js';

/** One group of calls: an entity's pattern (method) and operation, and the key space its units were consumed in. */
export interface ObservedCalls {
  /** Entity or edge; undefined for a table-wide call (a scan, a transaction). */
  readonly entity?: string;
  readonly pattern: string;
  /** The key space the units below were consumed in: undefined for the table, else the index. */
  readonly index?: string;
  readonly operation: string;
  readonly calls: number;
  readonly readUnits: number;
  readonly writeUnits: number;
  readonly items: number;
  readonly throttles: number;
  readonly retries: number;
}

/** One key a Contributor Insights report names. */
export interface ObservedKey {
  /** The key's values, as the report lists them (partition key, and sort key for an SK rule). */
  readonly keys: readonly string[];
  /** Accesses (or throttles) over the report's period. */
  readonly value: number;
  readonly kind: 'accessed' | 'throttled';
  /** The index the rule watches, when the rule name says. */
  readonly index?: string;
}

export interface ObservedTraffic {
  readonly file: string;
  readonly format: 'emf' | 'otlp' | 'contributor-insights';
  /** Seconds the figures cover. */
  readonly seconds: number;
  /** Physical table names the figures name (EMF and OTLP). */
  readonly tables: readonly string[];
  readonly calls: readonly ObservedCalls[];
  readonly keys: readonly ObservedKey[];
  /** A Contributor Insights report's total over every contributor (AggregateValue). */
  readonly total?: number;
}

/** A file that cannot be read as observed traffic: the diagnostic names the file and the place. */
export class ObservedFileError extends Error {
  readonly diagnostic: Diagnostic;
  constructor(diagnostic: Diagnostic) {
    super(diagnostic.message);
    this.diagnostic = diagnostic;
  }
}

const FORMATS_FIX =
  "give the file as the tool wrote it: EMF lines from ddbgen's EmfWriter (the log as CloudWatch or Lambda wrote it is fine), an OTLP JSON metrics export (the OpenTelemetry collector's file exporter, or an OTLP/HTTP JSON body), or the JSON answer of aws cloudwatch get-insight-rule-report";

function fail(file: string, line: number, column: number, problem: string, fix = FORMATS_FIX): never {
  const text = messages.DDB310(problem, fix);
  throw new ObservedFileError({ code: 'DDB310', severity: 'error', message: text.message, fix: text.fix, target: 'observed', file, line, column });
}

/** The line and column of a character offset. */
function place(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before.at(-1)!.length + 1 };
}

/** JSON.parse, failing with the place the parser stopped at. */
function parseJson(file: string, text: string, lineOffset: number, columnOffset: number): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const position = /position (\d+)/.exec((error as Error).message)?.[1];
    const at = position === undefined ? { line: 1, column: 1 } : place(text, Number(position));
    return fail(file, lineOffset + at.line, (at.line === 1 ? columnOffset : 0) + at.column, `not JSON (${(error as Error).message.replace(/\s+/g, ' ')})`);
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads observed traffic from a file's text (`name` as the file is printed). */
export function readObserved(name: string, text: string): ObservedTraffic {
  const trimmed = text.trim();
  if (trimmed === '') fail(name, 1, 1, 'the file is empty');
  // one JSON document (OTLP, a Contributor Insights report, one EMF document) …
  let whole: unknown;
  try {
    whole = JSON.parse(trimmed);
  } catch {
    whole = undefined;
  }
  if (isRecord(whole)) {
    const line = place(text, text.indexOf('{')).line;
    if ('resourceMetrics' in whole) return otlp(name, [{ document: whole, line }]);
    if ('Contributors' in whole || 'KeyLabels' in whole) return contributorInsights(name, whole);
    if ('_aws' in whole) return emf(name, [{ document: whole, line }]);
    fail(name, line, 1, 'a JSON document with none of resourceMetrics (OTLP), Contributors (a Contributor Insights report) or _aws (EMF)');
  }
  // … or one per line (EMF as a log, OTLP as the collector's file exporter writes it)
  const documents: Array<{ document: Record<string, unknown>; line: number }> = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const start = raw.indexOf('{');
    if (raw.trim() === '') continue;
    // a log line with a prefix (Lambda's timestamp and request id) and no JSON is not a metric: left alone
    if (start < 0) continue;
    const document = parseJson(name, raw.slice(start).trim(), i, start);
    if (!isRecord(document)) fail(name, i + 1, start + 1, 'a JSON value that is not an object');
    documents.push({ document, line: i + 1 });
  }
  if (documents.length === 0) fail(name, 1, 1, 'no line holds a JSON document');
  if (documents.every((d) => 'resourceMetrics' in d.document)) return otlp(name, documents);
  const foreign = documents.find((d) => !('_aws' in d.document) && !('resourceMetrics' in d.document));
  // other JSON log lines beside EMF are fine (an application's logs); OTLP and EMF mixed are not
  if (documents.some((d) => 'resourceMetrics' in d.document)) fail(name, documents.find((d) => !('resourceMetrics' in d.document))!.line, 1, 'OTLP exports mixed with other lines');
  if (!documents.some((d) => '_aws' in d.document)) fail(name, foreign!.line, 1, 'no line is an EMF document (no _aws member)');
  return emf(name, documents.filter((d) => '_aws' in d.document));
}

// ---- EMF ---------------------------------------------------------------------------------------------

const EMF_NUMBERS = ['Calls', 'ConsumedReadCapacity', 'ConsumedWriteCapacity', 'Items', 'Throttles', 'Retries'] as const;
const EMF_DIMENSIONS = ['Table', 'Entity', 'Pattern', 'Index', 'Operation'] as const;
const TABLE_KEY_SPACE = '(table)';

function emf(file: string, documents: ReadonlyArray<{ document: Record<string, unknown>; line: number }>): ObservedTraffic {
  const calls: ObservedCalls[] = [];
  const tables = new Set<string>();
  let first = Infinity;
  let last = -Infinity;
  for (const { document, line } of documents) {
    const aws = document['_aws'];
    if (!isRecord(aws) || !Array.isArray(aws['CloudWatchMetrics'])) fail(file, line, 1, '_aws.CloudWatchMetrics is not an array');
    const directives = aws['CloudWatchMetrics'] as unknown[];
    // ddbgen's documents: a directive whose dimension set is Table, Entity, Pattern, Index, Operation
    const ours = directives.some((d) => isRecord(d) && Array.isArray(d['Dimensions']) && (d['Dimensions'] as unknown[]).some((set) => Array.isArray(set) && EMF_DIMENSIONS.every((name) => set.includes(name))));
    if (!ours) continue;
    for (const name of EMF_DIMENSIONS) if (typeof document[name] !== 'string') fail(file, line, 1, `dimension ${name} is ${JSON.stringify(document[name])}, not a string`);
    for (const name of EMF_NUMBERS) {
      const value = document[name];
      if (value !== undefined && (typeof value !== 'number' || !Number.isFinite(value) || value < 0)) fail(file, line, 1, `${name} is ${JSON.stringify(value)}, not a non-negative number`);
    }
    const timestamp = aws['Timestamp'];
    if (typeof timestamp !== 'number' || !Number.isFinite(timestamp)) fail(file, line, 1, `_aws.Timestamp is ${JSON.stringify(timestamp)}, not milliseconds since the epoch`);
    const start = document['PeriodStart'] ?? timestamp;
    if (typeof start !== 'number' || start > timestamp) fail(file, line, 1, `PeriodStart is ${JSON.stringify(document['PeriodStart'])}, not a time at or before _aws.Timestamp`);
    first = Math.min(first, start);
    last = Math.max(last, timestamp);
    const n = (name: (typeof EMF_NUMBERS)[number]) => (document[name] as number | undefined) ?? 0;
    const entity = document['Entity'] as string;
    const index = document['Index'] as string;
    tables.add(document['Table'] as string);
    calls.push({
      ...(entity === TABLE_KEY_SPACE ? {} : { entity }),
      pattern: document['Pattern'] as string,
      ...(index === TABLE_KEY_SPACE ? {} : { index }),
      operation: document['Operation'] as string,
      calls: n('Calls'),
      readUnits: n('ConsumedReadCapacity'),
      writeUnits: n('ConsumedWriteCapacity'),
      items: n('Items'),
      throttles: n('Throttles'),
      retries: n('Retries'),
    });
  }
  if (calls.length === 0) throw noTraffic(file, `no EMF document has ddbgen's dimensions (${EMF_DIMENSIONS.join(', ')})`);
  const seconds = (last - first) / 1000;
  if (!(seconds > 0)) fail(file, documents[0]!.line, 1, 'the lines cover no time: every document has the same _aws.Timestamp and none a PeriodStart before it', 'give the lines as EmfWriter wrote them (each carries the PeriodStart of its window), or lines of more than one flush');
  return { file, format: 'emf', seconds, tables: [...tables], calls, keys: [] };
}

function noTraffic(file: string, what: string): ObservedFileError {
  const text = messages.DDB311(file, what);
  return new ObservedFileError({ code: 'DDB311', severity: 'error', message: text.message, fix: text.fix, target: 'observed', file, line: 1, column: 1 });
}

// ---- OTLP JSON ---------------------------------------------------------------------------------------

const OTLP_METRICS: Readonly<Record<string, keyof Pick<ObservedCalls, 'calls' | 'readUnits' | 'writeUnits' | 'items' | 'throttles' | 'retries'>>> = {
  'ddbgen.operations': 'calls',
  'ddbgen.consumed_capacity.read': 'readUnits',
  'ddbgen.consumed_capacity.write': 'writeUnits',
  'ddbgen.items': 'items',
  'ddbgen.throttles': 'throttles',
  'ddbgen.retries': 'retries',
};

/** An OTLP AnyValue as text (string, int, double, bool). */
function anyValue(value: unknown): string | undefined {
  if (!isRecord(value)) return undefined;
  for (const key of ['stringValue', 'intValue', 'doubleValue', 'boolValue']) if (value[key] !== undefined) return String(value[key]);
  return undefined;
}

/** A time in nanoseconds (OTLP JSON writes 64-bit integers as strings). */
function nanos(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
  return undefined;
}

function otlp(file: string, documents: ReadonlyArray<{ document: Record<string, unknown>; line: number }>): ObservedTraffic {
  interface Point {
    readonly metric: string;
    readonly attributes: Record<string, string>;
    readonly value: number;
    readonly start: number;
    readonly time: number;
    readonly cumulative: boolean;
  }
  const points: Point[] = [];
  for (const { document, line } of documents) {
    const at = (where: string, problem: string): never => fail(file, line, 1, `${where}: ${problem}`);
    if (!Array.isArray(document['resourceMetrics'])) at('resourceMetrics', 'not an array');
    (document['resourceMetrics'] as unknown[]).forEach((resource, r) => {
      const scopes = isRecord(resource) ? resource['scopeMetrics'] : undefined;
      if (!Array.isArray(scopes)) at(`resourceMetrics[${r}].scopeMetrics`, 'not an array');
      (scopes as unknown[]).forEach((scope, s) => {
        const metrics = isRecord(scope) ? scope['metrics'] : undefined;
        if (!Array.isArray(metrics)) at(`resourceMetrics[${r}].scopeMetrics[${s}].metrics`, 'not an array');
        (metrics as unknown[]).forEach((metric, m) => {
          const where = `resourceMetrics[${r}].scopeMetrics[${s}].metrics[${m}]`;
          if (!isRecord(metric) || typeof metric['name'] !== 'string') at(`${where}.name`, 'not a string');
          const name = (metric as Record<string, unknown>)['name'] as string;
          if (OTLP_METRICS[name] === undefined) return;
          const sum = (metric as Record<string, unknown>)['sum'];
          if (!isRecord(sum) || !Array.isArray(sum['dataPoints'])) at(`${where}.sum.dataPoints`, `not an array (${name} is a sum)`);
          const cumulative = (sum as Record<string, unknown>)['aggregationTemporality'] !== 1 && (sum as Record<string, unknown>)['aggregationTemporality'] !== 'AGGREGATION_TEMPORALITY_DELTA';
          ((sum as Record<string, unknown>)['dataPoints'] as unknown[]).forEach((point, p) => {
            const here = `${where}.sum.dataPoints[${p}]`;
            if (!isRecord(point)) at(here, 'not an object');
            const raw = (point as Record<string, unknown>)['asDouble'] ?? (point as Record<string, unknown>)['asInt'];
            const value = typeof raw === 'string' && /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw;
            if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) at(`${here}.asDouble`, `${JSON.stringify(raw)} is not a non-negative number`);
            const start = nanos((point as Record<string, unknown>)['startTimeUnixNano']);
            const time = nanos((point as Record<string, unknown>)['timeUnixNano']);
            if (start === undefined || time === undefined || start > time) at(`${here}.startTimeUnixNano/timeUnixNano`, 'not a time range in nanoseconds');
            const attributes: Record<string, string> = {};
            const list = (point as Record<string, unknown>)['attributes'] ?? [];
            if (!Array.isArray(list)) at(`${here}.attributes`, 'not an array');
            for (const attribute of list as unknown[]) {
              if (!isRecord(attribute) || typeof attribute['key'] !== 'string') at(`${here}.attributes`, 'an attribute without a key');
              const text = anyValue((attribute as Record<string, unknown>)['value']);
              if (text !== undefined) attributes[(attribute as Record<string, unknown>)['key'] as string] = text;
            }
            points.push({ metric: name, attributes, value: value as number, start: start!, time: time!, cumulative });
          });
        });
      });
    });
  }
  if (points.length === 0) throw noTraffic(file, `no data point of ${Object.keys(OTLP_METRICS).join(', ')}`);
  // a cumulative series: its latest point holds the whole; a delta series: its points add up
  const series = new Map<string, Point[]>();
  for (const point of points) {
    const key = `${point.metric}\0${JSON.stringify(Object.entries(point.attributes).sort())}`;
    series.set(key, [...(series.get(key) ?? []), point]);
  }
  const groups = new Map<string, { -readonly [K in keyof ObservedCalls]: ObservedCalls[K] }>();
  const tables = new Set<string>();
  let first = Infinity;
  let last = -Infinity;
  for (const list of series.values()) {
    const used = list[0]!.cumulative ? [list.reduce((a, b) => (b.time > a.time ? b : a))] : list;
    for (const point of used) {
      first = Math.min(first, point.start);
      last = Math.max(last, point.time);
      const a = point.attributes;
      const pattern = a['ddbgen.pattern'];
      if (pattern === undefined) continue;
      if (a['db.collection.name'] !== undefined) tables.add(a['db.collection.name']);
      const index = a['aws.dynamodb.index_name'];
      const entity = a['ddbgen.entity'];
      const operation = a['db.operation.name'] ?? 'Unknown';
      const key = JSON.stringify([entity, pattern, index, operation]);
      const group = groups.get(key) ?? { ...(entity === undefined ? {} : { entity }), pattern, ...(index === undefined ? {} : { index }), operation, calls: 0, readUnits: 0, writeUnits: 0, items: 0, throttles: 0, retries: 0 };
      group[OTLP_METRICS[point.metric]!] += point.value;
      groups.set(key, group);
    }
  }
  if (groups.size === 0) throw noTraffic(file, 'no data point carries ddbgen.pattern');
  const seconds = (last - first) / 1e9;
  if (!(seconds > 0)) fail(file, documents[0]!.line, 1, 'the data points cover no time (startTimeUnixNano equals timeUnixNano)', 'export after the traffic ran, so the points cover a period');
  return { file, format: 'otlp', seconds, tables: [...tables], calls: [...groups.values()], keys: [] };
}

// ---- Contributor Insights ----------------------------------------------------------------------------

const RULE = /DynamoDBContributorInsights-(PKC|PKT|SKC|SKT)-(.+)$/;

function contributorInsights(file: string, report: Record<string, unknown>): ObservedTraffic {
  const where = (member: string, problem: string): never => fail(file, 1, 1, `${member}: ${problem}`, 'give the JSON answer of aws cloudwatch get-insight-rule-report --rule-name … --start-time … --end-time … --period … --output json, as it printed it (a RuleName member beside it says which rule it is)');
  if (!Array.isArray(report['Contributors'])) where('Contributors', 'not an array');
  const ruleName = typeof report['RuleName'] === 'string' ? report['RuleName'] : path.basename(file);
  const rule = RULE.exec(ruleName);
  const kind = rule && (rule[1] === 'PKT' || rule[1] === 'SKT') ? 'throttled' : 'accessed';
  const index = typeof report['IndexName'] === 'string' ? report['IndexName'] : undefined;
  const keys: ObservedKey[] = (report['Contributors'] as unknown[]).map((c, i) => {
    if (!isRecord(c) || !Array.isArray(c['Keys']) || !c['Keys'].every((k) => typeof k === 'string')) return where(`Contributors[${i}].Keys`, 'not an array of strings');
    const value = c['ApproximateAggregateValue'];
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return where(`Contributors[${i}].ApproximateAggregateValue`, `${JSON.stringify(value)} is not a non-negative number`);
    return { keys: c['Keys'] as string[], value, kind, ...(index === undefined ? {} : { index }) };
  });
  // the period: the request's StartTime and EndTime when given beside the answer, else the datapoints' span plus one period
  const time = (value: unknown, member: string) => {
    const t = typeof value === 'string' || typeof value === 'number' ? new Date(value).getTime() : NaN;
    if (!Number.isFinite(t)) where(member, `${JSON.stringify(value)} is not a time`);
    return t;
  };
  let seconds: number;
  if (report['StartTime'] !== undefined || report['EndTime'] !== undefined) {
    seconds = (time(report['EndTime'], 'EndTime') - time(report['StartTime'], 'StartTime')) / 1000;
  } else {
    const points = Array.isArray(report['MetricDatapoints']) ? (report['MetricDatapoints'] as unknown[]) : [];
    const times = points.map((p, i) => time(isRecord(p) ? p['Timestamp'] : undefined, `MetricDatapoints[${i}].Timestamp`)).sort((a, b) => a - b);
    if (times.length === 0) where('MetricDatapoints', 'none, and no StartTime and EndTime: the report\'s period is unknown');
    const gaps = times.slice(1).map((t, i) => t - times[i]!).filter((g) => g > 0);
    const period = typeof report['Period'] === 'number' ? report['Period'] * 1000 : gaps.length ? Math.min(...gaps) : 60_000;
    seconds = (times.at(-1)! - times[0]! + period) / 1000;
  }
  if (!(seconds > 0)) where('StartTime/EndTime', 'the period is empty');
  if (keys.length === 0) throw noTraffic(file, 'the report names no contributor');
  const total = typeof report['AggregateValue'] === 'number' ? report['AggregateValue'] : undefined;
  return { file, format: 'contributor-insights', seconds, tables: [], calls: [], keys, ...(total === undefined ? {} : { total }) };
}
