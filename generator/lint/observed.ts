// The lint held against observed traffic (`ddbgen lint --observed FILE`): the numbers the generated
// code reported (observed-input.ts) beside the declared ones, per entity, pattern and key space.
// Three rules say where reality breaks the declaration, each with its arithmetic: HK101 a pattern
// (or an entity's reads or writes) at ten times its declared rate or more; HK102 a key Contributor
// Insights names that takes more than the declared share, comes near a partition's limit, or was
// throttled; HK103 a GSI whose write units are past the table's. Then the whole lint runs again on
// the schema with the observed rates in place of the declared ones, and every finding that is new
// or more severe there is reported as the observed traffic's. Each fix proposes the `traffic` to
// declare.

import type { EntityDef, PatternDef, TableDef, TemplateDef, TrafficDef } from '../../dsl/ir.js';
import type { DiagnosticSeverity, PendingDiagnostic } from '../diagnostics/diagnostic.js';
import { lintMessages } from '../diagnostics/messages.js';
import { HEADROOM, keySpaces, PARTITION_READ_UNITS, PARTITION_WRITE_UNITS, readUnitsPerItem, writeUnitsPerItem, ASSUMED_ITEM_BYTES, type KeySpace } from '../model/load-model.js';
import type { ObservedCalls, ObservedKey, ObservedTraffic } from './observed-input.js';
import { lintTable } from './run-lint.js';

/** At this many times the declared rate, the declaration is broken (HK101). */
export const RATE_FACTOR = 10;

const READ_OPERATIONS = new Set(['GetItem', 'Query', 'Scan', 'BatchGetItem', 'TransactGetItems']);
const BATCH_OPERATIONS = new Set(['BatchGetItem', 'BatchWriteItem']);

const num = (n: number, digits = 1) => n.toLocaleString('en-US', { maximumFractionDigits: n >= 100 ? 0 : digits });
/** A rate to declare: the observed one, rounded up to two significant digits. */
export function roundUp(n: number): number {
  if (n <= 0) return 0;
  const magnitude = 10 ** Math.max(0, Math.floor(Math.log10(n)) - 1);
  return Math.ceil(n / magnitude) * magnitude;
}

/** Observed figures of one entity key space (the table or one GSI) beside the declared ones. */
export interface ObservedRow {
  readonly entity: string;
  /** `table` or the GSI's name. */
  readonly index: string;
  readonly keySpace: string;
  readonly declared: { readonly reads?: number; readonly writes?: number; readonly readUnits?: number; readonly writeUnits?: number };
  readonly observed: { readonly calls: number; readonly reads: number; readonly writes: number; readonly readUnits: number; readonly writeUnits: number; readonly throttles: number };
}

/** Observed calls of one pattern (method) beside its declared rate. */
export interface ObservedPatternRow {
  readonly entity: string;
  readonly pattern: string;
  readonly declared?: number;
  readonly observed: number;
  readonly kind: 'reads' | 'writes';
}

export interface ObservedLint {
  readonly diagnostics: PendingDiagnostic[];
  readonly rows: ObservedRow[];
  readonly patterns: ObservedPatternRow[];
  /** The schema with the observed rates in place of the declared ones. */
  readonly observedTable: TableDef;
  /** Names the file reports that the schema does not declare. */
  readonly unknown: string[];
}

const isRead = (c: ObservedCalls) => READ_OPERATIONS.has(c.operation.split('+')[0]!);
/** Reads or writes of a group of calls: each call one, a batch each item. */
const countOf = (c: ObservedCalls) => (BATCH_OPERATIONS.has(c.operation.split('+')[0]!) ? c.items : c.calls);

const SEVERITY_RANK: Record<DiagnosticSeverity, number> = { info: 0, warn: 1, error: 2 };

/** The regular expression of a key template's keys (placeholders match escaped values). */
function templatePattern(template: TemplateDef, delimiter: string): RegExp {
  const d = delimiter.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const value = `(?:[^${d}\\\\]|\\\\.)+`;
  const parts = template.segments.map((s) => {
    if (s.kind === 'literal') return s.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const seg = s as { prefix?: string; suffix?: string };
    return `${(seg.prefix ?? '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}${value}${(seg.suffix ?? '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;
  });
  return new RegExp(`^${parts.join(d)}$`);
}

const hasPii = (entity: EntityDef, template: TemplateDef) => template.segments.some((s) => s.kind === 'placeholder' && (entity.attributes[s.name] as { pii?: boolean } | undefined)?.pii === true);

/** Holds observed traffic against a table's declarations. */
export function observedLint(table: TableDef, observed: ObservedTraffic, defaults: Readonly<Record<string, 'off' | 'info' | 'warn' | 'error'>> = {}): ObservedLint {
  const seconds = observed.seconds;
  const over = `${num(seconds)} s`;
  const source = `${observed.file}, ${over}`;
  const out: PendingDiagnostic[] = [];
  const unknown = new Set<string>();
  const push = (code: 'HK101' | 'HK102' | 'HK103', severity: DiagnosticSeverity, entity: string | undefined, path: readonly string[], text: { message: string; fix: string }) => {
    const override = (entity !== undefined ? table.entities[entity]?.lint?.[code] : undefined) ?? table.lint[code] ?? defaults[code];
    if (override === 'off') return;
    out.push({ code, severity: override ?? severity, message: text.message, fix: text.fix, target: [table.name, ...path].join('.'), path });
  };

  const named = observed.calls.filter((c) => {
    if (c.entity === undefined) return true;
    if (table.entities[c.entity] || table.edges[c.entity]) return true;
    unknown.add(c.entity);
    return false;
  });

  // ---- patterns: declared rates against observed calls (HK101) ----
  const patternRows: ObservedPatternRow[] = [];
  const patternOf = (c: ObservedCalls): PatternDef | undefined => {
    const p = table.patterns[c.pattern];
    return p && p.entity === c.entity ? p : undefined;
  };
  const byPattern = new Map<string, { entity: string; pattern: string; reads: number; writes: number }>();
  for (const c of named) {
    if (c.entity === undefined) continue;
    const key = `${c.entity}.${c.pattern}`;
    const row = byPattern.get(key) ?? { entity: c.entity, pattern: c.pattern, reads: 0, writes: 0 };
    if (isRead(c)) row.reads += countOf(c);
    else row.writes += countOf(c);
    byPattern.set(key, row);
  }
  for (const row of byPattern.values()) {
    const declared = table.patterns[row.pattern]?.entity === row.entity ? table.patterns[row.pattern] : undefined;
    if (declared === undefined) continue;
    const kind = declared.writesPerSecond !== undefined && declared.readsPerSecond === undefined ? 'writes' : 'reads';
    const rate = (kind === 'reads' ? row.reads : row.writes) / seconds;
    const given = kind === 'reads' ? declared.readsPerSecond : declared.writesPerSecond;
    patternRows.push({ entity: row.entity, pattern: row.pattern, ...(given === undefined ? {} : { declared: given }), observed: rate, kind });
    const field = kind === 'reads' ? 'readsPerSecond' : 'writesPerSecond';
    const arithmetic = `${num(rate * seconds, 0)} ${kind} in ${over} = ${num(rate, 2)}/s`;
    if (given === undefined) {
      if (rate > 0) push('HK101', 'info', row.entity, ['patterns', row.pattern], lintMessages.HK101(`pattern ${row.pattern} (${row.entity})`, `${arithmetic}, with no ${field} declared`, `declare ${field}: ${roundUp(rate)} on patterns.${row.pattern} (the observed rate, rounded up), and lint again`));
      continue;
    }
    const factor = given > 0 ? rate / given : Infinity;
    if (factor >= RATE_FACTOR) {
      push('HK101', 'error', row.entity, ['patterns', row.pattern], lintMessages.HK101(`pattern ${row.pattern} (${row.entity})`, `${arithmetic}, ${num(factor)}× its declared ${field}: ${num(given, 2)} (${RATE_FACTOR}× or more breaks the declaration)`, `declare ${field}: ${roundUp(rate)} on patterns.${row.pattern} (the observed rate, rounded up), and lint again: the rules then judge the load it serves`));
    }
  }

  // ---- entities: reads and writes outside the declared patterns (HK101), units per key space ----
  const spaces = keySpaces(table);
  const rows: ObservedRow[] = [];
  const entityRates = new Map<string, { reads: number; writes: number }>();
  for (const entity of [...Object.keys(table.entities), ...Object.keys(table.edges)]) {
    const own = named.filter((c) => c.entity === entity);
    const plain = own.filter((c) => patternOf(c) === undefined);
    const reads = plain.filter(isRead).reduce((s, c) => s + countOf(c), 0) / seconds;
    const writes = plain.filter((c) => !isRead(c)).reduce((s, c) => s + countOf(c), 0) / seconds;
    entityRates.set(entity, { reads, writes });
    const traffic: TrafficDef | undefined = table.entities[entity]?.traffic ?? table.edges[entity]?.traffic;
    const path = [table.entities[entity] ? 'entities' : 'edges', entity];
    for (const [kind, rate, given] of [
      ['reads', reads, traffic?.readsPerSecond],
      ['writes', writes, traffic?.writesPerSecond],
    ] as const) {
      if (rate === 0) continue;
      const field = kind === 'reads' ? 'readsPerSecond' : 'writesPerSecond';
      const arithmetic = `${num(rate * seconds, 0)} ${kind} in ${over} = ${num(rate, 2)}/s (calls of its methods outside declared patterns; a batch counts its items)`;
      if (given === undefined) {
        push('HK101', 'info', entity, [...path, 'traffic'], lintMessages.HK101(entity, `${arithmetic}, with no traffic.${field} declared`, `declare traffic: { ${field}: ${roundUp(rate)} } on ${entity} (the observed rate, rounded up), and lint again`));
        continue;
      }
      const factor = given > 0 ? rate / given : Infinity;
      if (factor >= RATE_FACTOR) {
        push('HK101', 'error', entity, [...path, 'traffic'], lintMessages.HK101(entity, `${arithmetic}, ${num(factor)}× its declared traffic.${field}: ${num(given, 2)} (${RATE_FACTOR}× or more breaks the declaration)`, `declare traffic: { ${field}: ${roundUp(rate)} } on ${entity} (the observed rate, rounded up), and lint again`));
      }
    }
  }
  for (const space of spaces) {
    if (space.kind !== 'entity') continue;
    const own = named.filter((c) => c.entity === space.owner);
    const inSpace = own.filter((c) => (c.index ?? 'table') === space.index || (space.index === 'table' && c.index !== undefined && table.indexes[c.index]?.kind === 'lsi'));
    const main = own.filter((c) => c.calls > 0 && (c.index ?? 'table') === space.index);
    rows.push({
      entity: space.owner,
      index: space.index,
      keySpace: `${space.pk.source}${space.sk ? ` / ${space.sk.source}` : ''}`,
      declared: { ...(space.reads !== undefined ? { reads: space.reads } : {}), ...(space.writes !== undefined ? { writes: space.writes } : {}), ...(space.readLoad !== undefined ? { readUnits: space.readLoad } : {}), ...(space.writeLoad !== undefined ? { writeUnits: space.writeLoad } : {}) },
      observed: {
        calls: main.reduce((s, c) => s + c.calls, 0) / seconds,
        reads: main.filter(isRead).reduce((s, c) => s + countOf(c), 0) / seconds,
        writes: space.index === 'table' ? own.filter((c) => !isRead(c) && c.calls > 0).reduce((s, c) => s + countOf(c), 0) / seconds : 0,
        readUnits: inSpace.reduce((s, c) => s + c.readUnits, 0) / seconds,
        writeUnits: inSpace.reduce((s, c) => s + c.writeUnits, 0) / seconds,
        throttles: main.reduce((s, c) => s + c.throttles, 0),
      },
    });
  }

  // ---- GSI write cost past the table's (HK103) ----
  for (const entity of Object.keys(table.entities)) {
    const tableRow = rows.find((r) => r.entity === entity && r.index === 'table');
    if (!tableRow) continue;
    for (const row of rows.filter((r) => r.entity === entity && r.index !== 'table')) {
      if (row.observed.writeUnits <= tableRow.observed.writeUnits || row.observed.writeUnits === 0) continue;
      const index = table.indexes[row.index];
      const projection = index?.kind === 'gsi' ? (Array.isArray(index.projection) ? `[${index.projection.join(', ')}]` : index.projection) : 'native';
      push(
        'HK103',
        'warn',
        entity,
        ['indexes', row.index],
        lintMessages.HK103(
          `${entity} in GSI ${row.index}`,
          `${num(row.observed.writeUnits * seconds, 1)} WCU in ${over} = ${num(row.observed.writeUnits, 2)} WCU/s on ${row.index} against ${num(tableRow.observed.writeUnits, 2)} WCU/s on the table (${num(row.observed.writeUnits / Math.max(tableRow.observed.writeUnits, 1e-9))}×): the index costs more to write than the data`,
          `project fewer attributes on ${row.index} (it projects ${projection}), make it sparse, or keep changing attributes out of its key`,
        ),
      );
    }
  }

  // ---- keys Contributor Insights names (HK102) ----
  const hotShares = new Map<string, number>();
  const total = observed.total ?? observed.keys.reduce((s, k) => s + k.value, 0);
  for (const key of observed.keys) {
    const value = key.keys[0] ?? '';
    // every key space whose partition-key template builds this key: entities sharing a partition (a collection) all match
    const matching = spaces.filter((s): s is Extract<KeySpace, { kind: 'entity' }> => s.kind === 'entity' && (key.index === undefined ? true : s.index === key.index) && templatePattern(s.pk, table.delimiter).test(value));
    const space = matching.find((s) => s.index === 'table') ?? matching[0];
    if (!space) continue;
    const entity = space.entity;
    const pii = matching.some((s) => hasPii(s.entity, s.pk));
    const shown = pii ? `a key of ${space.pk.source} (pii: its value is not printed)` : `key ${JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}...` : value)} (${space.pk.source})`;
    const sharing = [...new Set(matching.filter((s) => s !== space && s.index === space.index).map((s) => s.owner))];
    const where = `${space.label}, ${shown}${sharing.length ? `, a partition shared with ${sharing.join(', ')}` : ''}`;
    const rate = key.value / seconds;
    const path = space.index === 'table' ? ['entities', entity.name, 'key', 'pk'] : ['entities', entity.name, 'indexes', space.index, 'pk'];
    if (key.kind === 'throttled') {
      push('HK102', 'error', entity.name, path, lintMessages.HK102(where, `throttled ${num(key.value, 0)} times in ${over} (${num(rate, 2)}/s), as Contributor Insights reported`, `the key is past a partition's limit: spread it (a <shard> in ${space.pk.source}, N = ceil(its WCU / 800)), or cache its reads; then declare hotKeyShare as observed`));
      continue;
    }
    const share = total > 0 ? key.value / total : 0;
    hotShares.set(`${entity.name}\0${space.index}`, Math.max(share, hotShares.get(`${entity.name}\0${space.index}`) ?? 0));
    const traffic = entity.traffic;
    const writeHeavy = (traffic?.writesPerSecond ?? 0) > (traffic?.readsPerSecond ?? 0);
    const bytes = traffic?.itemBytes ?? ASSUMED_ITEM_BYTES;
    const perAccess = writeHeavy ? writeUnitsPerItem(bytes, false) : readUnitsPerItem(bytes, traffic?.consistent ?? false);
    const limit = writeHeavy ? PARTITION_WRITE_UNITS : PARTITION_READ_UNITS;
    const unit = writeHeavy ? 'WCU' : 'RCU';
    const units = rate * perAccess;
    const declaredShare = space.hotShare?.value;
    const arithmetic = `${num(key.value, 0)} accesses in ${over} = ${num(rate, 2)}/s × ${perAccess} ${unit} per access (${num(bytes, 0)} B ${writeHeavy ? 'writes' : 'reads'}) = ${num(units, 1)} ${unit}/s, ${num((units / limit) * 100, 1)}% of a partition's ${num(limit, 0)} ${unit}/s; ${num(share * 100, 1)}% of the ${num(total, 0)} accesses reported`;
    const proposal = `declare hotKeyShare: ${roundUp(share * 100) / 100} on ${entity.name}'s traffic${space.index === 'table' ? '' : ` (as { ${space.index}: … })`}`;
    if (units >= limit * HEADROOM) {
      push('HK102', units >= limit ? 'error' : 'warn', entity.name, path, lintMessages.HK102(where, arithmetic, `${proposal}; the key needs ${writeHeavy ? `N = ceil(${num(units, 0)} / (1,000 × 0.8)) = ${Math.max(2, Math.ceil(units / (PARTITION_WRITE_UNITS * HEADROOM)))} shards` : `a cache or N = ceil(${num(units, 0)} / (3,000 × 0.8)) = ${Math.max(2, Math.ceil(units / (PARTITION_READ_UNITS * HEADROOM)))} replicas`}`));
    } else if (declaredShare === undefined ? share >= 0.1 : share > 2 * declaredShare) {
      push('HK102', 'warn', entity.name, path, lintMessages.HK102(where, `${arithmetic}, against ${declaredShare === undefined ? 'no declared hotKeyShare (assumed spread)' : `the declared share of ${space.hotShare!.text}`}: a hot key the declaration did not expect`, `${proposal}, and lint again`));
    }
  }

  // ---- the lint again, on the observed rates ----
  const observedTable = withObservedRates(table, named, seconds, entityRates, hotShares);
  const declaredFindings = lintTable(table, defaults);
  const before = new Map(declaredFindings.map((d) => [`${d.code}\0${d.target}`, d]));
  for (const finding of lintTable(observedTable, defaults)) {
    const previous = before.get(`${finding.code}\0${finding.target}`);
    if (previous !== undefined && SEVERITY_RANK[previous.severity] >= SEVERITY_RANK[finding.severity]) continue;
    if (finding.severity === 'info') continue;
    out.push({ ...finding, message: `with the observed traffic (${source}), ${finding.message}${previous ? ` (declared: ${previous.severity})` : ' (declared: no finding)'}` });
  }
  return { diagnostics: out, rows, patterns: patternRows, observedTable, unknown: [...unknown] };
}

/** The table with every observed rate in place of the declared one (entities, edges, patterns), and observed hot-key shares. */
function withObservedRates(table: TableDef, calls: readonly ObservedCalls[], seconds: number, rates: ReadonlyMap<string, { reads: number; writes: number }>, shares: ReadonlyMap<string, number>): TableDef {
  const traffic = (given: TrafficDef | undefined, name: string): TrafficDef | undefined => {
    const rate = rates.get(name);
    if (!rate || (rate.reads === 0 && rate.writes === 0)) return given;
    const tableShare = shares.get(`${name}\0table`);
    const indexShares = [...shares].filter(([key]) => key.startsWith(`${name}\0`) && !key.endsWith('\0table')).map(([key, share]) => [key.split('\0')[1]!, share] as const);
    let hotKeyShare = given?.hotKeyShare;
    if (tableShare !== undefined || indexShares.length) {
      const base = typeof hotKeyShare === 'number' ? { table: hotKeyShare } : { ...(hotKeyShare ?? {}) };
      hotKeyShare = { ...base, ...(tableShare !== undefined ? { table: tableShare } : {}), ...Object.fromEntries(indexShares) };
    }
    return { ...(given ?? { kind: 'traffic' as const }), ...(rate.reads > 0 ? { readsPerSecond: rate.reads } : {}), ...(rate.writes > 0 ? { writesPerSecond: rate.writes } : {}), ...(hotKeyShare !== undefined ? { hotKeyShare } : {}) };
  };
  const patternRates = new Map<string, { reads: number; writes: number }>();
  for (const c of calls) {
    const p = c.entity === undefined ? undefined : table.patterns[c.pattern];
    if (!p || p.entity !== c.entity) continue;
    const r = patternRates.get(c.pattern) ?? { reads: 0, writes: 0 };
    if (isRead(c)) r.reads += countOf(c) / seconds;
    else r.writes += countOf(c) / seconds;
    patternRates.set(c.pattern, r);
  }
  return {
    ...table,
    entities: Object.fromEntries(Object.entries(table.entities).map(([name, e]) => {
      const t = traffic(e.traffic, name);
      return [name, t === undefined ? e : { ...e, traffic: t }];
    })),
    edges: Object.fromEntries(Object.entries(table.edges).map(([name, e]) => {
      const t = traffic(e.traffic, name);
      return [name, t === undefined ? e : { ...e, traffic: t }];
    })),
    patterns: Object.fromEntries(Object.entries(table.patterns).map(([name, p]) => {
      const r = patternRates.get(name);
      if (!r) return [name, p];
      return [name, { ...p, ...(r.reads > 0 ? { readsPerSecond: r.reads } : {}), ...(r.writes > 0 ? { writesPerSecond: r.writes } : {}) }];
    })),
  };
}

/** The observed figures as text, for `ddbgen lint --observed` (after the diagnostics). */
export function observedText(table: TableDef, observed: ObservedTraffic, result: ObservedLint): string {
  const rate = (n: number | undefined) => (n === undefined ? '–' : num(n, 2));
  const lines = [`observed traffic of ${table.name} (${observed.file}, ${observed.format}, ${num(observed.seconds)} s):`];
  if (result.patterns.length) {
    lines.push('', 'pattern                      entity        declared/s  observed/s');
    for (const p of result.patterns) lines.push(`${p.pattern.padEnd(28)} ${p.entity.padEnd(13)} ${rate(p.declared).padStart(10)}  ${rate(p.observed).padStart(10)}  ${p.kind}`);
  }
  const active = result.rows.filter((r) => r.observed.readUnits + r.observed.writeUnits + r.observed.calls > 0 || r.declared.reads !== undefined || r.declared.writes !== undefined);
  if (active.length) {
    lines.push('', 'entity        index      declared RCU/s  observed RCU/s  declared WCU/s  observed WCU/s  throttles');
    for (const r of active) lines.push(`${r.entity.padEnd(13)} ${r.index.padEnd(10)} ${rate(r.declared.readUnits).padStart(14)}  ${rate(r.observed.readUnits).padStart(14)}  ${rate(r.declared.writeUnits).padStart(14)}  ${rate(r.observed.writeUnits).padStart(14)}  ${String(r.observed.throttles).padStart(9)}`);
  }
  if (observed.keys.length) lines.push('', `${observed.keys.length} key${observed.keys.length === 1 ? '' : 's'} from Contributor Insights (${observed.keys[0]!.kind})`);
  return `${lines.join('\n')}\n`;
}
