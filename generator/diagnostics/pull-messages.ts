// The catalogue's messages of `ddbgen pull` (DDB300–DDB307) and of reading observed traffic
// (DDB310–DDB312), with the warnings pull prints first in its summary. Part of the one catalogue
// messages.ts assembles.

export const pullMessages = {
  // ddbgen pull: what stops it (each says what was read so far, printed beside it)
  DDB300: (problem: string, fix: string) => ({ message: problem, fix }),
  DDB301: (problem: string, fix: string) => ({ message: problem, fix }),
  DDB302: (sampled: number, reasons: string) => ({
    message: `no entity fits the ${sampled} sampled item(s): ${reasons}`,
    fix: 'read the reasons above: name the attribute that tells entities apart with --discriminator, or sample more items (--sample N) so a key shape is seen on several items',
  }),
  // ddbgen pull: warnings (what the schema leaves out; the text comes from pullWarnings)
  DDB304: (warning: string) => ({ message: warning, fix: 'map the index by hand in the entities whose items belong in it (a sparse mapping reads an optional attribute), or fix the items' }),
  DDB305: (warning: string) => ({ message: warning, fix: 'query the LSI with the AWS SDK, or move to a GSI ddbgen maps' }),
  DDB306: (warning: string) => ({ message: warning, fix: 'fix the listed items, or write the entity by hand with a literal of its own in its keys' }),
  DDB307: (warning: string) => ({ message: warning, fix: 'rewrite the listed items\' keys as the schema writes them, or widen the schema by hand (a keyFormat on the attribute whose part differs)' }),
  DDB310: (problem: string, fix: string) => ({ message: `the observed-traffic file cannot be read: ${problem}`, fix }),
  DDB311: (file: string, what: string) => ({
    message: `${file} holds no traffic ddbgen can use: ${what}`,
    fix: "give the EMF lines ddbgen's EmfWriter flushed, an OTLP JSON metrics export of ddbgen's metrics (ddbgen.operations, ddbgen.consumed_capacity.*), or a Contributor Insights GetInsightRuleReport answer (aws cloudwatch get-insight-rule-report --output json)",
  }),
  DDB312: (file: string, name: string, known: string) => ({
    message: `${file} reports traffic of ${name}, which the schema does not declare: its numbers are left out`,
    fix: `lint against the schema the traffic came from, or rename it to one of ${known}`,
  }),
  DDB303: (problems: readonly string[]) => ({
    message: `the inferred schema does not validate, so nothing was written: ${problems.join('; ')}`,
    fix: 'pull with --discriminator, or a larger --sample; or write the reported entities by hand',
  }),
} satisfies Record<string, (...args: never[]) => { message: string; fix: string }>;

/** A warning of `ddbgen pull`: what the pulled schema leaves out that the table holds, shown first in its summary. */
export interface PullWarning {
  readonly code: 'DDB304' | 'DDB305' | 'DDB306' | 'DDB307';
  readonly message: string;
}

export const pullWarnings = {
  indexLeftOut: (index: string, entity: string, why: string): PullWarning => ({
    code: 'DDB304',
    message: `index ${index} is left out of ${entity}: ${why}; items ddbgen writes for ${entity} are then not in ${index}, and the table's other writers and readers of ${index} do not see them (map it by hand if they should)`,
  }),
  lsiLeftOut: (index: string, attribute: string): PullWarning => ({
    code: 'DDB305',
    message: `LSI ${index} is left out of the schema: it is keyed by the items' own attribute ${attribute}, and ddbgen's LSIs hold a built sort key; queries on it are yours to write`,
  }),
  entityDropped: (entity: string, shape: string, items: number, why: string): PullWarning => ({
    code: 'DDB306',
    message: `entity ${entity} (keys "${shape}", ${items.toLocaleString('en-US')} item${items === 1 ? '' : 's'}) is left out: ${why}; its items are listed as fitting no entity`,
  }),
  keysNotWritten: (entity: string, items: number, of: number, first: string): PullWarning => ({
    code: 'DDB307',
    message: `ddbgen's codec does not write the stored keys of ${items.toLocaleString('en-US')} of ${of.toLocaleString('en-US')} ${entity} items as they are (${first}): the generated code reads and writes those items under other keys; they are listed as outliers`,
  }),
};
