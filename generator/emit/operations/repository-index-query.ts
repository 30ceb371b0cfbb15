// Emits a query method per access path (the table when its sort key varies, and each index), its
// async iterator (`…All`), a time-range query across the buckets of a time-bucketed partition key
// (`…Between`) and, on a rotated table, a query across its tables (`…AcrossTables`).

import { shardedPartition, type AccessPath } from '../../model/access-paths.js';
import { arrow, as, call, id, jsDoc, keyword, obj, objectType, print, returns, str, typeRef, type Expression, type TypeNode } from '../ast.js';
import { operationName } from '../context.js';
import { attributesType, pathNames, runtimeType, runtimeValue, type EntityScope, type PathNames } from '../entity/entity-scope.js';
import { examplesOf } from '../examples/doc-examples.js';
import { hasRecordConversion, itemFunction } from '../entity/record-conversion.js';
import { delegate, example, gathersConstant, param, shape, type Method } from './repository-crud.js';

const RANGE = objectType([
  { name: 'from', type: typeRef('Date'), readonly: true },
  { name: 'to', type: typeRef('Date'), readonly: true },
]);

/** The paths with something to query: a varying sort key, an index, or one item per shard to gather. */
export function queryPaths(scope: EntityScope): AccessPath[] {
  return [scope.primary, ...scope.indexPaths].filter((p) => p.sort.length > 0 || p.index !== undefined || (p === scope.primary && gathersConstant(scope)));
}

/** `(stored) => …`: how a page's records become items: decoded whole, or as the index projects them. */
export function recordMapper(scope: EntityScope, path: AccessPath): Expression {
  const names = pathNames(scope, path);
  if (path.projection === 'all') return hasRecordConversion(scope) ? id(itemFunction(scope)) : call(runtimeValue(scope, 'read', 'mapItem'), [id(scope.model)]);
  return arrow(['stored'], call(runtimeValue(scope, 'read', 'projectRecord'), [id(scope.model), id(names.indexModel!), id('stored')]));
}

/** `Promise<Page<Item>>`: what a query method returns, and what it asserts the runtime's page to. */
export const pageOf = (scope: EntityScope, item: string): TypeNode => typeRef('Promise', runtimeType(scope, 'read', 'Page', typeRef(item)));

/** `ItemIterator<Item>` (an `AsyncGenerator<Item, void, undefined>`): what an `…All` method returns. */
export const itemsOf = (scope: EntityScope, item: string): TypeNode => runtimeType(scope, 'read', 'ItemIterator', typeRef(item));

/** `queryPage`, or `queryShards` (gather.ts) when the path's partition key is sharded: only sharded schemas carry the gather. */
const pageQuery = (scope: EntityScope, access: AccessPath): string =>
  shardedPartition(access) ? runtimeValue(scope, 'gather', 'queryShards') : runtimeValue(scope, 'read', 'queryPage');

/** `queryPage(context, request, options, map) as Promise<Page<Item>>`. */
export const queryPageAs = (scope: EntityScope, access: AccessPath, item: string, request: Expression, map: Expression): Expression =>
  as(call(pageQuery(scope, access), [id('context'), request, id('options'), map]), pageOf(scope, item));

/**
 * `return allItems((page) => entityMethod(context, first, page), options) as ItemIterator<Item>;`: the
 * runtime passes the options on with each page's cursor, so the function builds no object type per call.
 */
export function iterate(scope: EntityScope, method: string, first: string, item: string): string {
  return returns(as(call(runtimeValue(scope, 'read', 'allItems'), [arrow(['page'], call(operationName(scope.name, method), [id('context'), id(first), id('page')])), id('options')]), itemsOf(scope, item)));
}

function queryOptions(scope: EntityScope, path: AccessPath, names: PathNames): TypeNode {
  const gsi = path.index?.kind === 'gsi';
  const condition = path.sort.length ? typeRef(names.sortConditionType) : keyword.never();
  return runtimeType(scope, 'read', gsi ? 'IndexQueryOptions' : 'QueryOptions', condition);
}

export function emitIndexQueries(scope: EntityScope): Method[] {
  const { name } = scope;
  const methods: Method[] = [];
  for (const access of queryPaths(scope)) {
    const names = pathNames(scope, access);
    const projected = access.projection !== 'all';
    const options = queryOptions(scope, access, names);
    const where = `${access.index ? `index ${access.index.name}` : 'the table'} (${access.pk.source}${access.sk ? ` / ${access.sk.source}` : ''})`;
    const cursorNote = ' Pass `cursor` from the previous page to continue.';
    const partitionType = typeRef(names.partitionType);
    // the gather only where the partition key is sharded: the factory reads one partition by default
    const reads = shardedPartition(access) ? [recordMapper(scope, access), id(runtimeValue(scope, 'gather', 'queryShards'))] : [recordMapper(scope, access)];
    const target = [str(names.method), access.index ? str(access.index.name) : id('undefined'), ...reads];
    if (!projected) {
      methods.push({
        name: names.method,
        docs: jsDoc(
          `Lists ${name} items of one partition of ${where} in sort-key order` +
            (access.sort.length ? ', optionally narrowed by `where` on a left-to-right prefix of the sort-key parts (`eq` matches whole parts, `beginsWith` text at the start of a string part)' : '') +
            `.${cursorNote}`,
          [...example(examplesOf(scope).query(access, names.method)), { name: 'throws', text: 'KeyValueError before any request if a partition part is missing or invalid; CursorError if `cursor` is not one this query returned' }],
        ),
        shape: shape(scope, 'repository', 'Query', [typeRef(name), partitionType, options], 'queryOperation', target),
      });
    } else {
      methods.push({
        name: names.method,
        docs: jsDoc(`Lists ${name} items of one partition of ${where} as the index projects them; with \`fetch: true\`, reads the full items by key (batched).${cursorNote}`, [
          ...example(examplesOf(scope).query(access, names.method)),
          { name: 'throws', text: 'KeyValueError before any request if a partition part is missing or invalid; CursorError if `cursor` is not one this query returned; BatchError if `fetch` stops early' },
        ]),
        shape: shape(scope, 'repository', 'FetchQuery', [typeRef(name), typeRef(names.itemType), partitionType, options], 'fetchQueryOperation', target),
      });
    }
    methods.push(...timeRange(scope, access, names), ...acrossTables(scope, access, names));
    methods.push({
      name: `${names.method}All`,
      docs: jsDoc(`Every item \`${names.method}\` would return, page after page (from \`options.cursor\` if given), as an async iterator.`, example(examplesOf(scope).iterated(names.method))),
      shape: shape(scope, 'repository', 'QueryAll', [typeRef(names.itemType), partitionType, options], 'queryAllOperation', [str(names.method), id(operationName(scope.name, names.method))]),
    });
  }
  return methods;
}

/** Across every time bucket of a partition key like `Featured.<featuredAt:month>` whose sort key starts with the same timestamp, unbucketed. */
function timeRange(scope: EntityScope, access: AccessPath, names: PathNames): Method[] {
  const { entity, name } = scope;
  const bucket = access.pk.segments.find((seg) => seg.kind === 'placeholder' && seg.truncate !== undefined && entity.attributes[seg.name]?.kind === 'timestamp');
  const firstSort = access.sk?.segments.find((seg) => seg.kind === 'placeholder');
  if (bucket?.kind !== 'placeholder' || firstSort?.kind !== 'placeholder' || firstSort.name !== bucket.name || firstSort.truncate !== undefined) return [];
  const rest = access.partition.filter((a) => a !== bucket.name);
  const method = `${names.method}Between`;
  const gsi = access.index?.kind === 'gsi';
  return [
    {
      name: method,
      docs: jsDoc(
        `${name} items with ${bucket.name} from \`range.from\` to \`range.to\` (inclusive), across every ${bucket.truncate} bucket of ${access.pk.source}` +
          `${shardedPartition(access) ? ' and every shard' : ''}, merged in order under one cursor.`,
        [...example(examplesOf(scope).timeRange(method, access.index?.name, { attribute: bucket.name, unit: bucket.truncate! }, rest)), { name: 'throws', text: 'CursorError if `cursor` is not one this query returned' }],
      ),
      // a partition that is nothing but the bucket takes no partition argument
      parameters: [
        ...(rest.length ? [param('partition', attributesType(scope, rest, 'required'))] : []),
        param('range', RANGE),
        param('options', runtimeType(scope, 'read', gsi ? 'IndexQueryOptions' : 'QueryOptions', keyword.never()), { initializer: '{}' }),
      ],
      returnType: print(pageOf(scope, names.itemType)),
      statements: delegate(scope, 'gather', 'queryTimeRange', [
        str(method),
        access.index ? str(access.index.name) : id('undefined'),
        obj([['attribute', str(bucket.name)], ['unit', str(bucket.truncate!)]]),
        rest.length ? id('partition') : obj([]),
        id('range'),
        id('options'),
        recordMapper(scope, access),
      ], pageOf(scope, names.itemType)),
      isAsync: true,
    },
  ];
}

/** On a rotated table, a table query whose sort key leads with a timestamp reads every period's table the range touches. */
function acrossTables(scope: EntityScope, access: AccessPath, names: PathNames): Method[] {
  const { entity, name, ctx } = scope;
  const leading = access.sk?.segments.find((seg) => seg.kind === 'placeholder');
  if (!ctx.table.rotation || access.index || leading?.kind !== 'placeholder' || leading.truncate !== undefined || entity.attributes[leading.name]?.kind !== 'timestamp' || access.partition.includes(leading.name)) return [];
  const method = `${names.method}AcrossTables`;
  return [
    {
      name: method,
      docs: jsDoc(
        `${name} items of one partition with ${leading.name} from \`range.from\` to \`range.to\` (inclusive), read from every ${ctx.table.rotation}'s table the range touches` +
          ' (one per period, from the base name), merged in order under one cursor.',
        [...example(examplesOf(scope).acrossTables(method, leading.name, access.partition)), { name: 'throws', text: 'CursorError if `cursor` is not one this query returned' }],
      ),
      parameters: [param('partition', typeRef(names.partitionType)), param('range', RANGE), param('options', runtimeType(scope, 'read', 'QueryOptions', keyword.never()), { initializer: '{}' })],
      returnType: print(pageOf(scope, name)),
      statements: delegate(scope, 'rotation', 'queryRotated', [str(method), str(leading.name), id('partition'), id('range'), id('options'), recordMapper(scope, access)], pageOf(scope, name)),
      isAsync: true,
    },
  ];
}
