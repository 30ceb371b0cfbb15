// The view model of `ddbgen report`: everything the HTML page shows, computed here from the IR, the
// lint and the planner by pure functions (sample keys come from the real key codec). The Handlebars
// template only lays it out; the SVG geometry is computed here too.

import type { AttributeDef, EdgeDef, EntityDef, TableDef, TemplateDef } from '../../dsl/ir.js';
import { KeyTemplate } from '../../templates/runtime/codec.js';
import { edgeNodeTypes } from '../../templates/runtime/edge.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { ASSUMED_ITEM_BYTES, HEADROOM, PARTITION_READ_UNITS, PARTITION_WRITE_UNITS, readUnitsPerItem, shardCount, units } from '../model/load-model.js';
import { planTable, type SpacePlan } from '../plan/capacity-plan.js';
import { rules } from '../lint/rules/index.js';
import { keySegments } from '../model/key-segments.js';
import { indexAccess, resolvePattern } from '../model/access-paths.js';
import { STREAM_VIEW_TYPES } from '../emit/integrations/stream.js';
import { nativeParts } from '../model/native-keys.js';

export interface KeyRow {
  readonly anchor: string;
  readonly entity: string;
  readonly index: string;
  readonly pk: string;
  readonly sk: string;
  readonly samplePk: string;
  readonly sampleSk: string;
}

export interface PatternRow {
  readonly name: string;
  readonly entity: string;
  readonly index: string;
  readonly condition: string;
  readonly returns: string;
  readonly rcuPerCall: string;
  readonly rcuPerSecond: string;
}

export interface FindingGroup {
  readonly rule: string;
  readonly name: string;
  readonly findings: ReadonlyArray<{ readonly severity: string; readonly message: string; readonly fix: string; readonly where: string; readonly anchor: string | null }>;
}

export interface HeatBar {
  readonly label: string;
  readonly unit: 'WCU/s' | 'RCU/s';
  readonly limit: number;
  readonly before: number;
  readonly after: number;
  readonly shards: number;
  readonly over: boolean;
  /** SVG geometry: bars scaled so the limit line sits at `limitX`. */
  readonly y: number;
  readonly beforeWidth: number;
  readonly afterWidth: number;
  readonly beforeText: string;
  readonly afterText: string;
  /** Sharding changes the load (more than one shard suggested): the after bar is drawn. */
  readonly sharded: boolean;
  /** Where the value labels sit: just past each bar's end. */
  readonly beforeLabelX: number;
  readonly afterLabelX: number;
}

export interface HeatTick {
  readonly x: number;
  readonly label: string;
}

export interface EdgeGraph {
  readonly name: string;
  readonly nodes: ReadonlyArray<{ readonly name: string; readonly x: number; readonly y: number }>;
  /** Straight links between two types, shortened to the circles' edges so the arrowheads show. */
  readonly links: ReadonlyArray<{ readonly x1: number; readonly y1: number; readonly x2: number; readonly y2: number; readonly label: string; readonly lx: number; readonly ly: number }>;
  /** Self-edges (a type linked to its own kind) as a loop above the node: an SVG path and where its label goes. */
  readonly loops: ReadonlyArray<{ readonly path: string; readonly label: string; readonly lx: number; readonly ly: number }>;
  readonly width: number;
  readonly height: number;
}

export interface TableView {
  readonly name: string;
  readonly capacity: string;
  readonly delimiter: string;
  /** The stream's view type as DynamoDB names it (`NEW_AND_OLD_IMAGES`), or '' without a stream. */
  readonly stream: string;
  /** The table's settings under their CloudFormation property names (TimeToLiveSpecification, …). */
  readonly settings: ReadonlyArray<{ readonly property: string; readonly value: string }>;
  readonly keys: readonly KeyRow[];
  readonly patterns: readonly PatternRow[];
  readonly findings: readonly FindingGroup[];
  readonly findingCount: number;
  readonly heat: { readonly bars: readonly HeatBar[]; readonly height: number; readonly barX: number; readonly limitX: number; readonly width: number; readonly ticks: readonly HeatTick[]; readonly axisY: number; readonly tickY: number; readonly tickLabelY: number; readonly captionY: number };
  readonly edges: readonly EdgeGraph[];
  /** Declared against observed traffic, with `--observed`. */
  readonly observed?: ObservedView;
}

/** Declared against observed units per key space (`ddbgen report --observed`): paired bars on one scale. */
export interface ObservedView {
  readonly source: string;
  readonly bars: ReadonlyArray<{
    readonly label: string;
    readonly keySpace: string;
    readonly fullKeySpace: string;
    readonly unit: 'RCU/s' | 'WCU/s';
    readonly declared: number | null;
    readonly observed: number;
    readonly declaredText: string;
    readonly observedText: string;
    /** Observed at ten times the declared or more, or with nothing declared. */
    readonly over: boolean;
    readonly y: number;
    readonly declaredWidth: number;
    readonly observedWidth: number;
    readonly declaredLabelX: number;
    readonly observedLabelX: number;
  }>;
  readonly patterns: ReadonlyArray<{ readonly pattern: string; readonly entity: string; readonly kind: string; readonly declared: string; readonly observed: string; readonly over: boolean }>;
  readonly barX: number;
  readonly width: number;
  readonly height: number;
}

/** What the report draws of observed traffic for one table: the figures `observedLint` worked out. */
export interface ObservedInput {
  readonly file: string;
  readonly seconds: number;
  readonly format: string;
  readonly rows: ReadonlyArray<{ readonly entity: string; readonly index: string; readonly keySpace: string; readonly declared: { readonly readUnits?: number; readonly writeUnits?: number }; readonly observed: { readonly readUnits: number; readonly writeUnits: number } }>;
  readonly patterns: ReadonlyArray<{ readonly entity: string; readonly pattern: string; readonly declared?: number; readonly observed: number; readonly kind: string }>;
}

const OBSERVED_BAR_X = 300;
/** Key templates longer than this are cut in the label (the whole one is its tooltip). */
const LABEL_CHARS = 42;
const OBSERVED_BAR_WIDTH = 480;
const OBSERVED_ROW = 46;

function observedView(input: ObservedInput): ObservedView {
  const figures = input.rows.flatMap((row) =>
    (['RCU/s', 'WCU/s'] as const).flatMap((unit) => {
      const declared = unit === 'RCU/s' ? row.declared.readUnits : row.declared.writeUnits;
      const observed = unit === 'RCU/s' ? row.observed.readUnits : row.observed.writeUnits;
      const keySpace = row.keySpace.length > LABEL_CHARS ? `${row.keySpace.slice(0, LABEL_CHARS - 1)}…` : row.keySpace;
      return observed > 0 || (declared ?? 0) > 0 ? [{ label: `${row.entity} ${row.index === 'table' ? '(table)' : `in ${row.index}`} · ${unit}`, keySpace, fullKeySpace: row.keySpace, unit, declared: declared ?? null, observed }] : [];
    }),
  );
  const max = Math.max(1e-9, ...figures.flatMap((f) => [f.declared ?? 0, f.observed]));
  const scale = (n: number) => Math.max(n > 0 ? 2 : 0, Math.round((n / max) * OBSERVED_BAR_WIDTH));
  const text = (n: number) => units(Math.round(n * 100) / 100);
  return {
    source: `${input.file} (${input.format}, ${units(Math.round(input.seconds * 10) / 10)} s)`,
    bars: figures.map((f, i) => {
      const y = 10 + i * OBSERVED_ROW;
      const declaredWidth = scale(f.declared ?? 0);
      const observedWidth = scale(f.observed);
      return {
        ...f,
        declaredText: f.declared === null ? 'declared: none' : `declared ${text(f.declared)} ${f.unit}`,
        observedText: `observed ${text(f.observed)} ${f.unit}`,
        over: f.declared === null ? f.observed > 0 : f.observed >= 10 * f.declared,
        y,
        declaredWidth,
        observedWidth,
        declaredLabelX: OBSERVED_BAR_X + declaredWidth + 6,
        observedLabelX: OBSERVED_BAR_X + observedWidth + 6,
      };
    }),
    patterns: input.patterns.map((p) => ({ pattern: p.pattern, entity: p.entity, kind: p.kind, declared: p.declared === undefined ? '–' : `${units(p.declared)}/s`, observed: `${units(Math.round(p.observed * 100) / 100)}/s`, over: p.declared === undefined || p.observed >= 10 * p.declared })),
    barX: OBSERVED_BAR_X,
    width: OBSERVED_BAR_X + OBSERVED_BAR_WIDTH + 190,
    height: 20 + figures.length * OBSERVED_ROW,
  };
}

export interface ReportView {
  readonly title: string;
  readonly version: string;
  readonly tables: readonly TableView[];
}

const SAMPLE_TIME = new Date('2024-05-06T07:08:09.010Z');

/** A sample value of an attribute; `n` tells two samples of one entity apart (the two ends of an edge). */
function sampleValue(name: string, attribute: AttributeDef | undefined, n = 1): unknown {
  switch (attribute?.kind) {
    case 'enum':
      return attribute.values[0];
    case 'boolean':
      return true;
    case 'number':
      return Math.min((attribute.min ?? 42) + n - 1, attribute.max ?? Infinity);
    case 'timestamp':
      return SAMPLE_TIME;
    default:
      return `${name}-${n}`;
  }
}

export function sampleValues(entity: EntityDef, n = 1): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const name of Object.keys(entity.attributes)) values[name] = sampleValue(name, entity.attributes[name], n);
  return values;
}

/** The key template the runtime builds a key with, or undefined when the template is broken (reported by validation). */
function liveTemplate(entity: EntityDef, template: TemplateDef | undefined, target: string, delimiter: string, shard?: EntityDef['key']['shard']): KeyTemplate | undefined {
  const segments = template && keySegments(entity, template, shard);
  return segments ? new KeyTemplate({ entity: entity.name, target, delimiter, maxBytes: 2048, segments }) : undefined;
}

export function sampleKey(entity: EntityDef, template: TemplateDef | undefined, target: string, delimiter: string, shard?: EntityDef['key']['shard']): string {
  return liveTemplate(entity, template, target, delimiter, shard)?.build(sampleValues(entity)) ?? '';
}

/**
 * An edge's rows: each relationship is an item in the source node's own partition (its entity's
 * partition key) with sort key `FORWARD<d><target type><d><target id>`, and one in the target's
 * with `INVERSE<d><source type><d><source id>`, ids encoded by the entities' codecs: sampled here
 * by the runtime's own edge templates, between the edge's first and last node types.
 */
function edgeRows(table: TableDef, edge: EdgeDef): KeyRow[] {
  const d = table.delimiter;
  const nodes: Record<string, KeyTemplate> = {};
  for (const type of edge.types) {
    const entity = table.entities[type];
    const template = entity && liveTemplate(entity, entity.key.pk, `${type}.key.pk`, d);
    if (!template) return [];
    nodes[type] = template;
  }
  const model = { name: edge.name, nodes, forward: edge.forward, ...(edge.inverse === undefined ? {} : { inverse: edge.inverse }), delimiter: d, pk: table.key.pk, sk: table.key.sk ?? '', codecs: {}, attributes: [], keyAttributes: [] };
  const types = edgeNodeTypes(model);
  const [fromType, toType] = [edge.types[0]!, edge.types[edge.types.length - 1]!];
  const [from, to] = [sampleValues(table.entities[fromType]!, 1), sampleValues(table.entities[toType]!, 2)];
  const partitions = [...new Set(edge.types.map((type) => table.entities[type]!.key.pk.source))].join(' | ');
  const row = (label: string, index: string, pk: string, sk: string): KeyRow => ({ anchor: anchorOf(table.name, ['edges', edge.name]), entity: `edge ${edge.name}`, index, pk: partitions, sk: `${label}${d}<type>${d}<id>`, samplePk: pk, sampleSk: sk });
  const rows = [row(edge.forward, 'table', nodes[fromType]!.build(from), types.get(toType)!.forward.build(to))];
  const inverse = types.get(fromType)!.inverse;
  if (edge.inverse !== undefined && inverse) rows.push(row(edge.inverse, edge.inverseIndex ? `${edge.inverseIndex} (GSI)` : 'table', nodes[toType]!.build(to), inverse.build(from)));
  return rows;
}

const anchorOf = (table: string, path: readonly string[]) => `${table}-${path.join('-')}`.replace(/[^A-Za-z0-9_-]/g, '_');

function keyRows(table: TableDef): KeyRow[] {
  const rows: KeyRow[] = [];
  for (const entity of Object.values(table.entities)) {
    rows.push({
      anchor: anchorOf(table.name, ['entities', entity.name, 'key']),
      entity: entity.name,
      index: 'table',
      pk: entity.key.pk.source,
      sk: entity.key.sk?.source ?? '',
      samplePk: sampleKey(entity, entity.key.pk, `${entity.name}.key.pk`, table.delimiter, entity.key.shard),
      sampleSk: sampleKey(entity, entity.key.sk, `${entity.name}.key.sk`, table.delimiter),
    });
    for (const mapping of Object.values(entity.indexes)) {
      const path = indexAccess(table, entity, mapping.index);
      if (!path) continue;
      rows.push({
        anchor: anchorOf(table.name, ['entities', entity.name, 'indexes', mapping.index]),
        entity: entity.name,
        index: `${mapping.index} (${path.index!.kind.toUpperCase()})`,
        pk: path.pk.source,
        sk: path.sk?.source ?? '',
        samplePk: sampleKey(entity, path.pk, `${entity.name}.indexes.${mapping.index}.pk`, table.delimiter, path.index!.kind === 'gsi' ? mapping.shard : entity.key.shard),
        sampleSk: sampleKey(entity, path.sk, `${entity.name}.indexes.${mapping.index}.sk`, table.delimiter),
      });
    }
    // a native GSI's key is the items' own attributes: listed as index attribute ← entity attribute, sampled as stored values
    for (const mapping of Object.values(entity.nativeIndexes ?? {})) {
      const index = table.indexes[mapping.index];
      if (index?.kind !== 'native-gsi') continue;
      const part = (which: 'pk' | 'sk') => nativeParts(index, mapping, which).map((source, i) => (source === index[which][i] ? source : `${index[which][i]} ← ${source}`)).join(', ');
      const sample = (which: 'pk' | 'sk') => nativeParts(index, mapping, which).map((source) => { const v = sampleValue(source, entity.attributes[source]); return v instanceof Date ? v.toISOString() : String(v); }).join(', ');
      rows.push({
        anchor: anchorOf(table.name, ['entities', entity.name, 'indexes', mapping.index]),
        entity: entity.name,
        index: `${mapping.index} (native GSI)`,
        pk: part('pk'),
        sk: part('sk'),
        samplePk: sample('pk'),
        sampleSk: sample('sk'),
      });
    }
  }
  for (const edge of Object.values(table.edges)) rows.push(...edgeRows(table, edge));
  return rows;
}

function patternRows(table: TableDef): PatternRow[] {
  return Object.values(table.patterns).flatMap((pattern) => {
    const resolved = resolvePattern(table, pattern);
    if (typeof resolved === 'string') return [];
    const { path, op, before, entity } = resolved;
    const pk = `pk = ${path.pk.source}`;
    const sk = pattern.sk === undefined ? (path.sk ? ` AND begins_with(sk, collection of ${path.sk.source})` : '') : ` AND sk (${path.sk!.source}): ${[...before, pattern.sk].join(', ')} ${op}`;
    const itemBytes = entity.traffic?.itemBytes ?? ASSUMED_ITEM_BYTES;
    const items = Math.min(entity.traffic?.itemsPerKey ?? 1, 100);
    const consistent = path.index?.kind !== 'gsi' && (pattern.consistent ?? entity.traffic?.consistent ?? false);
    const perCall = readUnitsPerItem(itemBytes * items, consistent);
    return [
      {
        name: pattern.name,
        entity: entity.name,
        index: pattern.index ?? 'table',
        condition: pk + sk,
        returns: path.projection === 'all' ? entity.name : `${entity.name} (${path.projection === 'keys-only' ? 'keys only' : path.projection.join(', ')})`,
        rcuPerCall: `${units(perCall)} (${items} item${items === 1 ? '' : 's'} of ${units(itemBytes)} B, ${consistent ? 'strongly' : 'eventually'} consistent)`,
        rcuPerSecond: pattern.readsPerSecond === undefined ? '–' : units(perCall * pattern.readsPerSecond),
      },
    ];
  });
}

function findingGroups(table: TableDef, diagnostics: readonly Diagnostic[], anchors: ReadonlySet<string>): FindingGroup[] {
  const own = diagnostics.filter((d) => d.target === table.name || d.target.startsWith(`${table.name}.`));
  const ids = [...new Set(own.map((d) => d.code))].sort();
  return ids.map((rule) => ({
    rule,
    name: rules.find((r) => r.id === rule)?.name ?? 'schema validation',
    findings: own
      .filter((d) => d.code === rule)
      .map((d) => {
        const path = d.target.split('.').slice(1);
        const candidates = [path.slice(0, 4), path.slice(0, 3), path.slice(0, 2)].map((p) => anchorOf(table.name, p[2] === 'pk' || p[2] === 'sk' ? p.slice(0, 3) : p));
        const anchor = candidates.find((a) => anchors.has(a)) ?? null;
        return { severity: d.severity, message: d.message, fix: d.fix, where: `${d.file ?? ''}${d.line ? `:${d.line}:${d.column}` : ''}`, anchor };
      }),
  }));
}

const ROW = 48;
/** Bars start after the labels; the limit line sits at LIMIT_X; a bar is capped at the chart's edge. */
export const BAR_X = 240;
const LIMIT_X = 560;
const CHART_WIDTH = 900;

/** Bars from the plan's numbers: the hottest shard (or key) now, and after the plan's fix (the total shard count for writes, replicas for reads). */
function heatBars(spaces: readonly SpacePlan[]): TableView['heat'] {
  const bars: HeatBar[] = [];
  const full = LIMIT_X - BAR_X;
  for (const space of spaces) {
    for (const [unit, limit] of [['WCU/s', PARTITION_WRITE_UNITS], ['RCU/s', PARTITION_READ_UNITS]] as const) {
      const key = unit === 'WCU/s' ? space.hottestKey.writeUnits : space.hottestKey.readUnits;
      if (key === null) continue;
      const load = (unit === 'WCU/s' ? space.hottestShard?.writeUnits : space.hottestShard?.readUnits) ?? key;
      const current = space.shards ?? 1;
      const hot = load > limit * HEADROOM;
      const shards = unit === 'WCU/s' ? (space.suggestedShards ?? current) : hot ? shardCount(key, limit) : current;
      const after = hot ? key / shards : load;
      const noun = unit === 'WCU/s' ? 'shard' : hot ? 'replica' : 'shard';
      const scale = (value: number) => Math.max(1, Math.round(Math.min(CHART_WIDTH - BAR_X, (value / limit) * full)));
      bars.push({
        label: `${space.entity} · ${space.index}`,
        unit,
        limit,
        before: load,
        after,
        shards,
        over: load > limit,
        y: 28 + bars.length * ROW,
        beforeWidth: scale(load),
        afterWidth: scale(after),
        beforeText: `${units(load)} ${unit}`,
        afterText: `${units(after)} ${unit} with ${shards} ${noun}${shards === 1 ? '' : 's'}`,
        sharded: after !== load,
        beforeLabelX: Math.min(BAR_X + scale(load) + 6, CHART_WIDTH - 4),
        afterLabelX: Math.min(BAR_X + scale(after) + 6, CHART_WIDTH - 4),
      });
    }
  }
  // the axis is in percent of a partition's limit (1,000 WCU/s or 3,000 RCU/s), so one line serves both units
  const ticks = [0, 25, 50, 75, 100, 125].map((percent) => ({ x: BAR_X + Math.round((percent / 100) * full), label: `${percent} %` }));
  const axisY = 28 + bars.length * ROW;
  return { bars, height: axisY + 40, barX: BAR_X, limitX: LIMIT_X, width: CHART_WIDTH, ticks, axisY, tickY: axisY + 5, tickLabelY: axisY + 18, captionY: axisY + 34 };
}

const NODE_RADIUS = 30;

function edgeGraphs(table: TableDef): EdgeGraph[] {
  const width = 480;
  return Object.values(table.edges).map((edge) => {
    const n = edge.types.length;
    const height = n === 1 ? 180 : 340;
    const label = `${edge.forward}${edge.inverse ? ` / ${edge.inverse}` : ''}`;
    const nodes = edge.types.map((name, i) =>
      n === 1 ? { name, x: width / 2, y: 120 } : { name, x: Math.round(width / 2 + 170 * Math.cos((2 * Math.PI * i) / n - Math.PI / 2)), y: Math.round(height / 2 + 30 + 110 * Math.sin((2 * Math.PI * i) / n - Math.PI / 2)) },
    );
    const links = nodes.flatMap((a, i) =>
      nodes.slice(i + 1).map((b) => {
        const length = Math.hypot(b.x - a.x, b.y - a.y);
        const ux = (b.x - a.x) / length;
        const uy = (b.y - a.y) / length;
        const gap = NODE_RADIUS + 4;
        return { x1: Math.round(a.x + ux * gap), y1: Math.round(a.y + uy * gap), x2: Math.round(b.x - ux * gap), y2: Math.round(b.y - uy * gap), label, lx: Math.round((a.x + b.x) / 2), ly: Math.round((a.y + b.y) / 2) };
      }),
    );
    // an edge's types may link to their own kind: a loop above each node (labelled when it is the only link)
    const loops = nodes.map((node) => {
      const top = node.y - NODE_RADIUS;
      return { path: `M ${node.x - 12} ${top + 2} C ${node.x - 40} ${top - 46}, ${node.x + 40} ${top - 46}, ${node.x + 12} ${top + 2}`, label: n === 1 ? label : '', lx: node.x, ly: top - 40 };
    });
    return { name: edge.name, nodes, links, loops, width, height };
  });
}

const count = (n: number | undefined) => (n === undefined ? 'no limit' : n.toLocaleString('en-US'));

function settingRows(table: TableDef): TableView['settings'] {
  const warm = table.capacity.warmThroughput;
  const max = table.onDemandMax;
  return [
    ...(table.ttl === undefined ? [] : [{ property: 'TimeToLiveSpecification', value: `${table.ttl}: items expire at it (epoch seconds); reads hide expired items until DynamoDB deletes them` }]),
    ...(table.pointInTimeRecovery === undefined ? [] : [{ property: 'PointInTimeRecoverySpecification', value: `enabled, ${table.pointInTimeRecovery.days} days` }]),
    ...(table.deletionProtection === undefined ? [] : [{ property: 'DeletionProtectionEnabled', value: String(table.deletionProtection) }]),
    ...(warm === undefined ? [] : [{ property: 'WarmThroughput', value: `${count(warm.read)} RRU/s, ${count(warm.write)} WRU/s` }]),
    ...(max === undefined ? [] : [{ property: 'OnDemandThroughput', value: `at most ${count(max.readRequestUnits)} RRU/s, ${count(max.writeRequestUnits)} WRU/s` }]),
    ...(table.tags === undefined || !Object.keys(table.tags).length ? [] : [{ property: 'Tags', value: Object.entries(table.tags).map(([k, v]) => `${k}=${v}`).join(', ') }]),
  ];
}

/** The report's view model: pure over the tables and the diagnostics found for them. */
export function reportView(tables: readonly TableDef[], diagnostics: readonly Diagnostic[], version: string, observed: ReadonlyMap<string, ObservedInput> = new Map()): ReportView {
  return {
    title: `ddbgen report: ${tables.map((t) => t.name).join(', ')}`,
    version,
    tables: tables.map((table) => {
      const keys = keyRows(table);
      const findings = findingGroups(table, diagnostics, new Set(keys.map((k) => k.anchor)));
      return {
        name: table.name,
        capacity: table.capacity.mode === 'provisioned' ? `provisioned ${table.capacity.read} RCU / ${table.capacity.write} WCU` : 'on-demand',
        delimiter: table.delimiter,
        stream: table.stream ? STREAM_VIEW_TYPES[table.stream] : '',
        settings: settingRows(table),
        keys,
        patterns: patternRows(table),
        findings,
        findingCount: findings.reduce((sum, g) => sum + g.findings.length, 0),
        heat: heatBars(planTable(table).spaces),
        edges: edgeGraphs(table),
        ...(observed.has(table.name) ? { observed: observedView(observed.get(table.name)!) } : {}),
      };
    }),
  };
}

